//! The [`Store::list`](crate::Store::list) contract applied to the names a foreign store (a
//! host object of a binding, the browser's `localStorage`) gave for a prefix.

use crate::Key;

/// The keys among `names` that are valid keys strictly below the folder `prefix`, sorted and
/// without duplicates; other names are dropped.
pub fn keys_below(names: impl IntoIterator<Item = String>, prefix: &Key) -> Vec<Key> {
    let mut keys: Vec<Key> = names
        .into_iter()
        .filter_map(|name| Key::new(name).ok())
        .filter(|key| key.is_under(prefix))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_valid_keys_below_the_prefix_sorted_once() {
        let prefix = Key::new("a").expect("key");
        let names = ["a/c", "a/b", "../x", "b/c", "a/b", "a", "a//d"].map(String::from);
        let keys: Vec<String> = keys_below(names, &prefix)
            .iter()
            .map(|k| k.as_str().to_owned())
            .collect();
        assert_eq!(keys, ["a/b", "a/c"]);
    }
}
