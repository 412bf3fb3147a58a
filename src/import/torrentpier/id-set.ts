// Which upstream ids were imported, as one bit per id: posts need their
// topics, topics their forums and authors, and a bitmap answers that in
// constant memory per id range (MEDIUMINT ids stop at 16,777,215: 2 MiB at
// most), where a Set of millions of numbers would grow with the forum.
export class IdSet {
  #bits = new Uint8Array(1024);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  add(id: number): void {
    if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`IdSet takes ids from 0, got ${id}`);
    const byte = id >>> 3;
    if (byte >= this.#bits.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.#bits.length * 2));
      grown.set(this.#bits);
      this.#bits = grown;
    }
    const mask = 1 << (id & 7);
    if ((this.#bits[byte]! & mask) === 0) {
      this.#bits[byte] = this.#bits[byte]! | mask;
      this.#size++;
    }
  }

  delete(id: number): void {
    if (!this.has(id)) return;
    const byte = id >>> 3;
    this.#bits[byte] = this.#bits[byte]! & ~(1 << (id & 7));
    this.#size--;
  }

  has(id: number): boolean {
    if (!Number.isSafeInteger(id) || id < 0) return false;
    const byte = id >>> 3;
    return byte < this.#bits.length && (this.#bits[byte]! & (1 << (id & 7))) !== 0;
  }
}
