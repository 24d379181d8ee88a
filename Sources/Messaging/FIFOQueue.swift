/// A first-in first-out queue with O(1) amortised push and pop (an array plus a head index, compacted lazily),
/// because `Array.removeFirst` is O(n) and broker queues can hold thousands of requests.
struct FIFOQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }

    mutating func append(_ element: Element) { storage.append(element) }

    /// Puts `element` in front, to be popped next (a retried request keeps its place).
    mutating func prepend(_ element: Element) {
        if head > 0 {
            head -= 1
            storage[head] = element
        } else {
            storage.insert(element, at: 0)
        }
    }

    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head >= 64 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes every element matching `predicate`, keeping order.
    mutating func removeAll(where predicate: (Element) -> Bool) {
        storage.removeFirst(head)
        head = 0
        storage.removeAll(where: predicate)
    }

    /// The elements in order.
    var elements: ArraySlice<Element> { storage[head...] }
}

extension FIFOQueue: Sendable where Element: Sendable {}
