//! [`Seen`]: the strings a rule has met so far in a list, with a value for each.
//!
//! Lists in a spec are short (a few env vars, tags, mounts), where a linear scan beats
//! hashing: SipHash was the largest cost of checking a typical spec. A hostile body can
//! hold thousands of entries, so past a few the index switches to a hash map and the
//! rules stay linear in the input.

use std::collections::HashMap;

/// Entries kept in the vector before the index switches to a hash map.
const SMALL: usize = 16;

/// Strings met so far, each with the value it was first met with.
pub(super) struct Seen<'a, V> {
    met: Vec<(&'a str, V)>,
    /// Each key's place in `met`, once there are many: one map type for every `V`, so
    /// the wasm carries one hash map, not one per kind of value (the validator package's
    /// size, BENCHMARKS.md).
    large: Option<HashMap<&'a str, usize>>,
}

impl<'a, V: Copy> Seen<'a, V> {
    /// Nothing seen yet.
    pub fn new() -> Self {
        Seen {
            met: Vec::new(),
            large: None,
        }
    }

    /// The value `key` was first met with.
    pub fn get(&self, key: &str) -> Option<V> {
        let at = match &self.large {
            Some(map) => map.get(key).copied(),
            None => self.met.iter().position(|(k, _)| *k == key),
        };
        at.map(|i| self.met[i].1)
    }

    /// Whether `key` was met.
    pub fn contains(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Records `key` unless it was met before; returns the earlier value if it was.
    pub fn first(&mut self, key: &'a str, value: V) -> Option<V> {
        if let Some(earlier) = self.get(key) {
            return Some(earlier);
        }
        self.met.push((key, value));
        match &mut self.large {
            Some(map) => {
                map.insert(key, self.met.len() - 1);
            }
            None if self.met.len() <= SMALL => {}
            None => {
                let map = self
                    .met
                    .iter()
                    .enumerate()
                    .map(|(i, (k, _))| (*k, i))
                    .collect();
                self.large = Some(map);
            }
        }
        None
    }

    /// Records `key`; false when it was met before (a set's `insert`).
    pub fn insert(&mut self, key: &'a str) -> bool
    where
        V: Default,
    {
        self.first(key, V::default()).is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_indexes_answer_alike() {
        let keys: Vec<String> = (0..100).map(|i| format!("k{}", i % 40)).collect();
        let mut seen: Seen<usize> = Seen::new();
        for (i, k) in keys.iter().enumerate() {
            let earlier = seen.first(k, i);
            // The first 40 keys are new; each later one repeats the key 40 places back.
            assert_eq!(earlier, (i >= 40).then_some(i % 40), "{k}");
        }
        assert!(seen.contains("k39"));
        assert!(!seen.contains("k40"));
    }
}
