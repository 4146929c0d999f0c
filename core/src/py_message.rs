//! The message a Python caller sees for a core error: the core message and its hint in the
//! Python API's terms (the keyword argument to pass).

use crate::{Error, Hint};

/// The message of `err` for a Python caller: [`Error::message`], then what the hint asks of
/// the caller in the Python API's terms (`replace=True`, `doctor(fix=True)`), if anything.
pub fn py_message(err: &Error) -> String {
    let advice = match err.hint() {
        Some(Hint::RaiseLimit { option }) => {
            format!(": pass a larger `{option}=` where the store or manager that read it is made")
        }
        Some(hint) => advice(hint).to_owned(),
        None => String::new(),
    };
    format!("{}{advice}", err.message())
}

/// What a Python caller may do for `hint`, appended to the core message.
fn advice(hint: Hint) -> &'static str {
    match hint {
        Hint::Replace => {
            ": pass `replace=True` to overwrite it: `archive(state, replace=True)` or \
             `archive_session(state, replace=True)` (also for a session already in a final \
             status), `complete(replace=True)` or `abort(replace=True)`"
        }
        Hint::Repair => ": `doctor(fix=True)` repairs it, keeping a copy",
        Hint::Takeover => ": pass `takeover=True` to take it over: `claim(owner, takeover=True)`",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn the_hint_in_the_python_api_terms() {
        let err = Error::new(ErrorKind::AlreadyExists, "it exists").with_hint(Hint::Replace);
        assert!(py_message(&err).starts_with("it exists: pass `replace=True` to overwrite it"));
        let limit = Error::new(ErrorKind::InvalidInput, "too big").with_hint(Hint::RaiseLimit {
            option: "max_document_bytes",
        });
        assert!(py_message(&limit).starts_with("too big: pass a larger `max_document_bytes=`"));
        let repair = Error::new(ErrorKind::CorruptState, "bad").with_hint(Hint::Repair);
        assert!(py_message(&repair).ends_with(": `doctor(fix=True)` repairs it, keeping a copy"));
        assert_eq!(py_message(&Error::invalid_input("no hint")), "no hint");
    }
}
