//! The value parser of the whole-number arguments (counts, seconds, hours, tokens, percents):
//! a negative value is named as such instead of being taken for an unknown flag.

use std::str::FromStr;

/// `text` as a whole number from 0 up that fits `T`; for use with `allow_negative_numbers`. The
/// messages say what is wrong, not a range: the command checks its own (a lease of 0 seconds is
/// refused with the lease's).
pub fn whole<T: FromStr>(text: &str) -> Result<T, String> {
    let text = text.trim();
    text.parse().map_err(|_| {
        if text.starts_with('-') {
            "cannot be negative".to_owned()
        } else if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            "too large".to_owned()
        } else {
            "not a whole number".to_owned()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::whole;

    #[test]
    fn negative_large_and_other_values_are_told_apart() {
        assert_eq!(whole::<u8>(" 42 "), Ok(42));
        assert!(whole::<u64>("-5").unwrap_err().contains("negative"));
        assert_eq!(whole::<u8>("300").unwrap_err(), "too large");
        assert!(
            whole::<u64>("1.5")
                .unwrap_err()
                .starts_with("not a whole number")
        );
        assert!(
            whole::<u64>("")
                .unwrap_err()
                .starts_with("not a whole number")
        );
    }
}
