//! Stub.
#![allow(unused)]

use crate::variant::model::*;
use crate::variant::propagate::*;

/// Stub.
pub(super) fn little_killer(cells: &[Cell], sum: u32, context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn sandwich(cells: &[Cell], sum: u32, context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn x_sum(cells: &[Cell], sum: u32, context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn skyscraper(cells: &[Cell], visible: u32, context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}
