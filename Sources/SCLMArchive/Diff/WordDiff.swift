/// A word-by-word comparison of two texts, with the element each changed word sits in.
///
/// The words are matched by Myers' shortest-edit-script algorithm (the standard library's
/// `difference(from:)`), comparing the words' text only; consecutive deleted (or inserted) words of one
/// element are reported as one change.
package enum WordDiff {
    /// One word and the element it sits in (``SlideText/Run/element``).
    package struct Word: Sendable, Hashable {
        package let text: String
        package let element: String

        /// Creates a word.
        package init(text: String, element: String) {
            self.text = text
            self.element = element
        }
    }

    /// Words deleted from the old text or inserted into the new one, in one element.
    package struct Change: Sendable, Equatable {
        /// Whether the words were deleted or inserted.
        package enum Kind: String, Sendable, Encodable {
            case deleted, inserted
        }

        package let kind: Kind
        /// The words, separated by single spaces.
        package let text: String
        /// The element they sit in (in the old text for deleted words, in the new one for inserted words).
        package let element: String

        /// Creates a change.
        package init(_ kind: Kind, _ text: String, in element: String) {
            self.kind = kind
            self.text = text
            self.element = element
        }
    }

    /// The changes that turn `old` into `new`, in document order (at one place, deletions first).
    package static func changes(from old: [Word], to new: [Word]) -> [Change] {
        let difference = new.map(\.text).difference(from: old.map(\.text))
        var deleted: Set<Int> = []
        var inserted: Set<Int> = []
        for change in difference {
            switch change {
            case .remove(let offset, _, _): deleted.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var changes: [Change] = []
        var oldIndex = 0
        var newIndex = 0
        // Whether the last change ends just before the current word (no kept word in between).
        var isContiguous = false
        while oldIndex < old.count || newIndex < new.count {
            if deleted.contains(oldIndex) {
                append(.deleted, old[oldIndex], to: &changes, joining: isContiguous)
                oldIndex += 1
                isContiguous = true
            } else if inserted.contains(newIndex) {
                append(.inserted, new[newIndex], to: &changes, joining: isContiguous)
                newIndex += 1
                isContiguous = true
            } else {
                oldIndex += 1
                newIndex += 1
                isContiguous = false
            }
        }
        return changes
    }

    /// Adds `word` to the last change when `joining` and it is of the same kind and element, else as a new one.
    private static func append(_ kind: Change.Kind, _ word: Word, to changes: inout [Change], joining: Bool) {
        if joining, let last = changes.last, last.kind == kind, last.element == word.element {
            changes[changes.count - 1] = Change(kind, last.text + " " + word.text, in: word.element)
        } else {
            changes.append(Change(kind, word.text, in: word.element))
        }
    }
}
