//! The web crate's integration tests, one binary: the texts the pages show, read back against
//! counts made here.

mod lesson_walk;
