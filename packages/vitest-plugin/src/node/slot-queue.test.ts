import { describe, expect, it } from 'vitest';
import { SlotQueue } from './slot-queue.js';

describe('SlotQueue', () => {
  it('grants at most the run limit at once, first come first served', () => {
    const queue = new SlotQueue<string>({ total: 2 });
    for (const holder of ['a', 'b', 'c', 'd']) queue.request(holder);
    expect(queue.grant()).toEqual(['a', 'b']);
    expect(queue.grant()).toEqual([]);
    expect([queue.held, queue.waiting]).toEqual([2, 2]);
    queue.remove('b');
    expect(queue.grant()).toEqual(['c']);
    queue.remove('a');
    queue.remove('c');
    expect(queue.grant()).toEqual(['d']);
    expect([queue.held, queue.waiting]).toEqual([1, 0]);
  });

  it('a holder that leaves while waiting loses its place and takes no slot', () => {
    const queue = new SlotQueue<string>({ total: 1 });
    for (const holder of ['a', 'b', 'c']) queue.request(holder);
    expect(queue.grant()).toEqual(['a']);
    queue.remove('b');
    queue.remove('a');
    expect(queue.grant()).toEqual(['c']);
    expect([queue.held, queue.waiting]).toEqual([1, 0]);
  });

  it('bounds each pool key by its own limit, inside the run limit', () => {
    const queue = new SlotQueue<string>({ total: 3, keys: { slow: 1 } });
    queue.request('slow-1', ['slow']);
    queue.request('slow-2', ['slow']);
    queue.request('free-1', ['other']);
    queue.request('free-2');
    queue.request('free-3');
    // slow-2 is held back by its pool; the requests behind it that fit go ahead, in order.
    expect(queue.grant()).toEqual(['slow-1', 'free-1', 'free-2']);
    expect(queue.heldIn('slow')).toBe(1);
    queue.remove('free-1');
    // A free slot of the run, but slow's pool is still full: the next that fits is free-3.
    expect(queue.grant()).toEqual(['free-3']);
    queue.remove('slow-1');
    queue.remove('free-2');
    expect(queue.grant()).toEqual(['slow-2']);
    expect(queue.heldIn('slow')).toBe(1);
  });

  it('a request naming several keys needs room in each of them', () => {
    const queue = new SlotQueue<string>({ total: 10, keys: { agent: 2, provider: 1 } });
    queue.request('a', ['agent', 'provider']);
    queue.request('b', ['agent', 'provider']);
    queue.request('c', ['agent']);
    queue.request('d', ['agent']);
    expect(queue.grant()).toEqual(['a', 'c']);
    queue.remove('a');
    expect(queue.heldIn('provider')).toBe(0);
    // b came before d: with a gone, both pools have room for b.
    expect(queue.grant()).toEqual(['b']);
    expect(queue.heldIn('agent')).toBe(2);
  });

  it('among grantable requests, the oldest wins a freed slot', () => {
    const queue = new SlotQueue<number>({ total: 1 });
    for (let holder = 0; holder < 100; holder++) queue.request(holder);
    const order: number[] = [];
    for (let turn = 0; turn < 100; turn++) {
      const [granted] = queue.grant();
      if (granted === undefined) throw new Error('nothing granted');
      order.push(granted);
      queue.remove(granted);
    }
    expect(order).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('refuses limits that are not positive integers, and a second request of one holder', () => {
    expect(() => new SlotQueue({ total: 0 })).toThrow('slot limit of total must be a positive integer');
    expect(() => new SlotQueue({ total: 1, keys: { x: 1.5 } })).toThrow(
      'slot limit of key "x" must be a positive integer',
    );
    const queue = new SlotQueue<string>({ total: 1 });
    queue.request('a');
    expect(() => queue.request('a')).toThrow('one slot at a time');
  });
});
