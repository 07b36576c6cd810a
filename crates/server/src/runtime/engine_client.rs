//! Whom an engine job is for, as the pool's fair queue counts clients (`pool`, `fair_queue`):
//! the address a game was created from (as the per-address limits count it: an IPv4 address or
//! an IPv6 /64), or, for a game from an address exempt from limits or from before addresses
//! were stored, the browser that owns it.

use crate::http::limits::address_key;
use crate::http::ownership::Asker;
use crate::model::Owner;
use virada_store::GameRow;

/// The client of game `id`'s computer moves, from its stored row (`None`: the row is gone; the
/// job then has a line of its own).
pub fn of_game(id: &str, row: Option<&GameRow>) -> String {
    match row {
        Some(GameRow {
            created_from: Some(address),
            ..
        }) => format!("address {address}"),
        Some(GameRow {
            owner: Owner::Browser(owner),
            ..
        }) => format!("browser {owner}"),
        _ => format!("game {id}"),
    }
}

/// The client of a request's hint or analysis: its address.
pub fn of_asker(asker: &Asker) -> String {
    format!("address {}", address_key(asker.ip))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::BrowserId;

    #[test]
    fn a_game_counts_for_its_address_else_its_owner() {
        let ab = BrowserId::of_token("ab");
        let row = |created_from: Option<&str>, owner: Owner| GameRow {
            owner,
            online: false,
            created_from: created_from.map(str::to_string),
        };
        let g1 = row(Some("203.0.113.9"), Owner::Browser(ab));
        assert_eq!(of_game("g1", Some(&g1)), "address 203.0.113.9");
        let g2 = row(None, Owner::Browser(ab));
        assert_eq!(of_game("g2", Some(&g2)), format!("browser {ab}"));
        let g3 = row(None, Owner::Unclaimed);
        assert_eq!(of_game("g3", Some(&g3)), "game g3");
        assert_eq!(of_game("nope", None), "game nope");
    }
}
