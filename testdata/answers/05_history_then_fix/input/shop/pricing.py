def total(items, discount=0.0):
    subtotal = sum(item.price * item.qty for item in items)
    if discount > 1:
        discount = discount / 100
    return round(subtotal * (1 - discount), 2)


def shipping(total):
    if total >= 50:
        return 0
    return 4.99
