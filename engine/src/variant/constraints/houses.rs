//! Stub.
#![allow(unused)]

use crate::variant::model::*;
use crate::variant::propagate::*;

/// Stub.
pub(super) fn classic(context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn distinct(cells: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn anti_knight(context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn anti_king(context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}
