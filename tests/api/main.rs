//! The HTTP API end to end: through the router with `oneshot`, and against the real server
//! on a random port. One module per feature; `helpers` starts apps and builds grids.

mod batch;
mod browser;
mod busy_grid;
#[path = "../common/mod.rs"]
mod common;
mod errors;
mod faults;
mod generate;
mod healthcheck;
mod helpers;
mod limits;
mod logic;
mod meanings;
mod openapi;
mod ops;
mod playground;
mod readme;
mod solve;
mod validate;
mod variants;
mod webdriver;
