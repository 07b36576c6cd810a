//! How the server answers the store's refusals (`From<StoreError> for AppError`): the store's
//! own suite (crates/store) checks that it refuses; this checks what a player is then told.

use virada_server::error::AppError;
use virada_store::StoreError;

#[test]
fn a_full_quota_is_429() {
    let e = AppError::from(StoreError::QuotaFull(
        "at most 3 unfinished online games".into(),
    ));
    assert_eq!(e.status().as_u16(), 429);
    assert!(e.message().contains("unfinished online games"), "{e}");
}

#[test]
fn a_corrupt_game_is_409_naming_the_game() {
    let e = AppError::from(StoreError::CorruptGame {
        id: "g_bad".into(),
        why: "f5 a1 is not legal".into(),
    });
    assert_eq!(e.status().as_u16(), 409);
    assert_eq!(e.code(), "corrupt_game");
    assert!(
        e.message().contains("g_bad") && e.message().contains("corrupt"),
        "{e}"
    );
}
