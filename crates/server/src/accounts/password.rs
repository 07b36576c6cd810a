//! Password hashing: argon2id (RustCrypto's `argon2` crate; docs/ARCHITECTURE.md says why) with
//! OWASP's parameters (19 MiB, 2 passes, 1 lane), on tokio's blocking pool (never on the async
//! runtime), at most [`HASHING_AT_ONCE`] at a time (each takes 19 MiB and a core for tens of
//! milliseconds). Recovery codes are random (100 bits) and stored as SHA-256: a code that long
//! cannot be guessed, so it needs no slow hash.

use crate::error::{AppError, AppResult};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::sync::OnceLock;
use tokio::sync::Semaphore;

/// Passwords hashed or verified at once (a queue forms beyond it).
pub const HASHING_AT_ONCE: usize = 4;
/// argon2id memory in KiB (19 MiB), passes and lanes.
const MEMORY_KIB: u32 = 19 * 1024;
const PASSES: u32 = 2;
const LANES: u32 = 1;

fn hasher() -> AppResult<Argon2<'static>> {
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None)
        .map_err(|e| AppError::Internal(format!("argon2 parameters: {e}")))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

fn permits() -> &'static Semaphore {
    static PERMITS: OnceLock<Semaphore> = OnceLock::new();
    PERMITS.get_or_init(|| Semaphore::new(HASHING_AT_ONCE))
}

/// Runs `f` on the blocking pool with one of the hashing permits.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> AppResult<T> + Send + 'static,
) -> AppResult<T> {
    let _permit = permits()
        .acquire()
        .await
        .map_err(|e| AppError::Internal(format!("password hashing: {e}")))?;
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| AppError::Internal(format!("password hashing failed: {e}")))?
}

fn hash_now(password: &str) -> AppResult<String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| AppError::Internal(format!("no random salt: {e}")))?;
    let salt =
        SaltString::encode_b64(&salt).map_err(|e| AppError::Internal(format!("salt: {e}")))?;
    Ok(hasher()?
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| AppError::Internal(format!("argon2: {e}")))?
        .to_string())
}

fn verify_now(password: &str, phc: &str) -> AppResult<bool> {
    let parsed =
        PasswordHash::new(phc).map_err(|e| AppError::Internal(format!("stored hash: {e}")))?;
    Ok(hasher()?
        .verify_password(password.as_bytes(), &parsed)
        .is_ok())
}

/// The PHC string of `password`'s argon2id hash with a fresh salt.
pub async fn hash(password: String) -> AppResult<String> {
    blocking(move || hash_now(&password)).await
}

/// Whether `password` matches the stored PHC string `phc`.
pub async fn verify(password: String, phc: String) -> AppResult<bool> {
    blocking(move || verify_now(&password, &phc)).await
}

/// Spends the time of a verification when there is no account to check (an unknown username
/// answers as slowly as a wrong password, so timing does not tell which names exist).
pub async fn verify_nobody(password: String) -> AppResult<()> {
    static DUMMY: OnceLock<String> = OnceLock::new();
    blocking(move || {
        let phc = match DUMMY.get() {
            Some(phc) => phc.clone(),
            None => {
                let phc = hash_now("no account has this password")?;
                DUMMY.get_or_init(|| phc).clone()
            }
        };
        verify_now(&password, &phc).map(|_| ())
    })
    .await
}

/// Letters of recovery codes: Crockford's base 32 (digits and capitals without I, L, O, U; 5
/// bits each).
const CODE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Groups of five letters in a code (4 x 5 x 5 = 100 bits).
const CODE_GROUPS: usize = 4;

/// A fresh recovery code: `XXXXX-XXXXX-XXXXX-XXXXX`.
pub fn new_recovery_code() -> AppResult<String> {
    let mut bytes = [0u8; CODE_GROUPS * 5];
    getrandom::fill(&mut bytes).map_err(|e| AppError::Internal(format!("no random code: {e}")))?;
    let letters: Vec<char> = bytes
        .iter()
        .map(|b| char::from(CODE_ALPHABET[usize::from(b & 31)]))
        .collect();
    Ok(letters
        .chunks(5)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-"))
}

/// The stored form of a recovery code as typed: upper case, without dashes and spaces, hashed.
pub fn recovery_hash(code: &str) -> String {
    let normal: String = code
        .chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    crate::identity::token_hash(&normal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only() {
        let phc = hash_now("correct horse").unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(verify_now("correct horse", &phc).unwrap());
        assert!(!verify_now("correct hors", &phc).unwrap());
        // A fresh salt each time.
        assert_ne!(phc, hash_now("correct horse").unwrap());
    }

    #[test]
    fn recovery_codes_are_fresh_and_typed_loosely() {
        let code = new_recovery_code().unwrap();
        assert_eq!(code.len(), 23);
        assert_ne!(code, new_recovery_code().unwrap());
        let typed = code.to_ascii_lowercase().replace('-', " ");
        assert_eq!(recovery_hash(&typed), recovery_hash(&code));
        assert_ne!(recovery_hash("AAAAA"), recovery_hash(&code));
    }
}
