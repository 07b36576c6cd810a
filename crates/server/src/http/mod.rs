//! The HTTP edge every feature shares: typed JSON bodies (`extract`), the Host and Origin
//! checks (`guard`), per-address buckets and caps (`limits`), who asks for a game and what they
//! may do with it (`ownership`), and the one WebSocket loop (`socket`). The router that wires the
//! features is `crate::api`; the accept loop is `crate::server`.

pub(crate) mod extract;
pub(crate) mod guard;
pub mod limits;
pub(crate) mod ownership;
pub(crate) mod socket;
