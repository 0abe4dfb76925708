//! Reusable widgets, embeddable in other portals.

mod load;
mod plan;
mod report;

pub use load::load;
pub use plan::{PlanView, amount};
pub use report::{ReportView, field_place};
