export class Counter {
  constructor(start = 0, step = 1) {
    this.start = start;
    this.step = step;
    this.value = start;
  }

  increment() {
    this.value += this.step;
    return this.value;
  }

  reset() {
    this.value = this.start;
  }
}
