class Rect:
    def area(self):
        return self.w * self.h

class Square:
    def area(self):
        return self.side ** 2
