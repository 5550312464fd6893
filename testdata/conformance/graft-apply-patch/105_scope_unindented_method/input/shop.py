class Cart:
    def __init__(self):
        self.items = []
        self.tax = 0.2

    def total(self):
        subtotal = sum(self.items)
        return subtotal
