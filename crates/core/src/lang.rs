//! The languages guoxiang speaks to people.

/// A language for messages: Simplified Chinese or English.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    Zh,
    En,
}

impl Lang {
    /// `zh`/`zh-CN`/`zh-Hans`… → Chinese, `en…` → English.
    pub fn parse(s: &str) -> Option<Lang> {
        let l = s.trim().to_ascii_lowercase();
        if l.starts_with("zh") {
            Some(Lang::Zh)
        } else if l.starts_with("en") {
            Some(Lang::En)
        } else {
            None
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }
}

/// A message in both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    pub zh: String,
    pub en: String,
}

impl Text {
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::Zh => &self.zh,
            Lang::En => &self.en,
        }
    }
}
