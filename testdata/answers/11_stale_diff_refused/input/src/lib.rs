use std::collections::HashMap;

pub struct Registry {
    handlers: HashMap<String, fn(&str) -> String>,
}

impl Registry {
    pub fn new() -> Self {
        Registry { handlers: HashMap::new() }
    }

    pub fn register(&mut self, name: &str, handler: fn(&str) -> String) {
        self.handlers.insert(name.to_owned(), handler);
    }

    pub fn call(&self, name: &str, arg: &str) -> Option<String> {
        self.handlers.get(name).map(|h| h(arg))
    }
}
