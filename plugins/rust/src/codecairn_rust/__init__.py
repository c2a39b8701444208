"""codecairn's Rust plugin: modules, items, impl blocks on their types, use trees and calls."""
