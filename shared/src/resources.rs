//! Resource amounts in integer units: GPUs, vCPUs and GiB of memory.
//!
//! Quota, availability and placement all compare these three dimensions, so they travel
//! together as [`Resources`]. Units are whole numbers, as the catalog sells them; no floats.

pub use crate::vocab::Dimension;
use serde::{Deserialize, Serialize};
use std::fmt;

/// An amount of GPUs, vCPUs and memory.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Resources {
    /// Whole GPUs.
    pub gpu: u64,
    /// Virtual CPUs.
    pub vcpu: u64,
    /// Memory in GiB.
    pub memory_gib: u64,
}

impl Resources {
    /// Nothing at all.
    pub const ZERO: Resources = Resources {
        gpu: 0,
        vcpu: 0,
        memory_gib: 0,
    };

    /// Builds an amount from its three dimensions.
    pub const fn new(gpu: u64, vcpu: u64, memory_gib: u64) -> Self {
        Resources {
            gpu,
            vcpu,
            memory_gib,
        }
    }

    /// The amount in one dimension.
    pub fn get(&self, dimension: Dimension) -> u64 {
        match dimension {
            Dimension::Gpu => self.gpu,
            Dimension::Vcpu => self.vcpu,
            Dimension::MemoryGib => self.memory_gib,
        }
    }

    fn zip(self, other: Resources, f: impl Fn(u64, u64) -> Option<u64>) -> Option<Resources> {
        Some(Resources {
            gpu: f(self.gpu, other.gpu)?,
            vcpu: f(self.vcpu, other.vcpu)?,
            memory_gib: f(self.memory_gib, other.memory_gib)?,
        })
    }

    /// The sum, or `None` on overflow.
    pub fn checked_add(self, other: Resources) -> Option<Resources> {
        self.zip(other, u64::checked_add)
    }

    /// The sum, capped at `u64::MAX` in each dimension.
    pub fn saturating_add(self, other: Resources) -> Resources {
        self.zip(other, |a, b| Some(a.saturating_add(b)))
            .expect("saturating addition always succeeds")
    }

    /// `count` times this amount, or `None` on overflow.
    pub fn checked_mul(self, count: u64) -> Option<Resources> {
        self.zip(Resources::new(count, count, count), u64::checked_mul)
    }

    /// What is left after taking `other` away, never below zero in any dimension.
    pub fn saturating_sub(self, other: Resources) -> Resources {
        self.zip(other, |a, b| Some(a.saturating_sub(b)))
            .expect("saturating subtraction always succeeds")
    }

    /// Whether every dimension of `self` is at most that of `other`.
    pub fn fits_within(&self, other: &Resources) -> bool {
        Dimension::ALL.iter().all(|&d| self.get(d) <= other.get(d))
    }

    /// How many copies of `need` fit in `self` at once (the gang-fit `k_i`).
    ///
    /// A zero `need` in a dimension does not limit the count; an all-zero `need` fits
    /// `u64::MAX` times.
    pub fn copies_of(&self, need: &Resources) -> u64 {
        Dimension::ALL
            .iter()
            .filter(|&&d| need.get(d) > 0)
            .map(|&d| self.get(d) / need.get(d))
            .min()
            .unwrap_or(u64::MAX)
    }
}

impl fmt::Display for Resources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} GPU, {} vCPU, {} GiB",
            self.gpu, self.vcpu, self.memory_gib
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_are_limited_by_the_scarcest_dimension() {
        let free = Resources::new(8, 100, 500);
        assert_eq!(free.copies_of(&Resources::new(2, 40, 100)), 2);
        assert_eq!(free.copies_of(&Resources::new(0, 10, 0)), 10);
        assert_eq!(free.copies_of(&Resources::ZERO), u64::MAX);
    }

    #[test]
    fn overflow_is_reported_not_wrapped() {
        assert_eq!(
            Resources::new(u64::MAX, 0, 0).checked_add(Resources::new(1, 0, 0)),
            None
        );
        assert_eq!(Resources::new(2, 0, 0).checked_mul(u64::MAX), None);
    }
}
