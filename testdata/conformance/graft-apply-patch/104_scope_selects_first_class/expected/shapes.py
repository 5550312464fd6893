class Rect:
    def area(self):
        return self.width * self.height

class Square:
    def area(self):
        return self.w * self.h
