//! The listing rule of stores that hold their keys as free-form names (a JS host store, Web
//! Storage, a Python object): names that are not valid keys, or not below the prefix, are
//! skipped, and the rest come sorted and once each, as [`Store::list`](crate::Store::list) says.

use crate::Key;

/// The keys strictly below the folder `prefix` among `names`, sorted, without repeats.
pub fn keys_under(prefix: &Key, names: impl IntoIterator<Item = String>) -> Vec<Key> {
    let mut keys: Vec<Key> = names
        .into_iter()
        .filter_map(|name| Key::new(name).ok())
        .filter(|key| key.is_under(prefix))
        .collect();
    // Equal keys are identical, so unstable gives the same result with less code.
    keys.sort_unstable();
    keys.dedup();
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_bad_names_and_keys_elsewhere_and_sorts_once_each() {
        let prefix = Key::new("a").unwrap();
        let names = ["a/z", "../x", "b/c", "a/b/c", "a/z", "a"].map(String::from);
        let keys: Vec<String> = keys_under(&prefix, names)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(keys, ["a/b/c", "a/z"]);
    }
}
