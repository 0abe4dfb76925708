//! Reusable widgets, embeddable in other portals.

mod plan;
mod report;

pub use plan::{PlanView, amount};
pub use report::{ReportView, field_place};
