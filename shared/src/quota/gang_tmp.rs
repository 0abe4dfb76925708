//! Provisional until the gang-fit rework lands.
#![allow(missing_docs)]
use super::{Resources, Slot};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GangPlacement {
    pub head: Option<usize>,
    pub workers: Vec<(usize, u64)>,
}

pub fn gang_place(
    slots: &[Slot],
    need: Resources,
    workers: u64,
    head: Option<Resources>,
) -> Option<GangPlacement> {
    let mut free: Vec<Resources> = slots.iter().map(|s| s.free).collect();
    let head_at = match head {
        Some(h) => {
            let j = (0..slots.len()).find(|&j| slots[j].head && h.fits_within(&free[j]))?;
            free[j] = free[j].saturating_sub(h);
            Some(j)
        }
        None => None,
    };
    let mut left = workers;
    let mut out = Vec::new();
    for (i, s) in slots.iter().enumerate() {
        if left == 0 {
            break;
        }
        if !s.worker {
            continue;
        }
        let k = free[i].copies_of(&need).min(left);
        if k > 0 {
            out.push((i, k));
            left -= k;
        }
    }
    (left == 0).then_some(GangPlacement {
        head: head_at,
        workers: out,
    })
}
