//! The one way the model's vocabularies are written: an enum whose values are stored and sent
//! as text.

/// A column's text that names no value of the enum it should decode into.
#[derive(Debug, thiserror::Error)]
#[error("{text:?} is not a {of}")]
pub struct UnknownText {
    pub text: String,
    pub of: &'static str,
}

/// An enum stored and sent as text: each variant's text is its name in
/// snake_case (serde's and the OpenAPI document's `rename_all`, spelled out
/// once more for `as_str`, which a test holds to serde's), and each enum gets
/// `as_str`, `parse`, `ALL` (in declaration order) and `Display`.
#[macro_export]
macro_rules! text_enum {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$variant_meta:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $($(#[$variant_meta])* $variant,)+
        }

        impl $name {
            pub const ALL: &[Self] = &[$(Self::$variant),+];

            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $text,)+
                }
            }

            /// The value whose text this is.
            pub fn parse(text: &str) -> Option<Self> {
                Self::ALL.iter().find(|known| known.as_str() == text).copied()
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        // The store decodes a column's text through this (`#[sqlx(try_from = "String")]`).
        impl TryFrom<String> for $name {
            type Error = $crate::text_enum::UnknownText;

            fn try_from(text: String) -> Result<Self, Self::Error> {
                Self::parse(&text).ok_or($crate::text_enum::UnknownText { text, of: stringify!($name) })
            }
        }
    };
}
