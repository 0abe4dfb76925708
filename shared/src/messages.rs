//! The languages users read Berth in.
//!
//! A leaf module: quota reasons and validation findings both render text in a [`Lang`].

use serde::{Deserialize, Serialize};

/// The console's languages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    /// English.
    #[default]
    #[serde(rename = "en")]
    En,
    /// Simplified Chinese.
    #[serde(rename = "zh-CN")]
    Zh,
}
