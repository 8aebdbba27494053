//! What the edge runs on: its settings, the state handlers reach, the gRPC clients of the services,
//! and the edge's own caches and limits (menus, cities, the shell's route table, per-address rate
//! limits, upstream streams shared by their watchers), with the machinery that serves the published web build. It knows no route and no
//! domain rule; it imports only `http` plumbing.

pub mod city_cache;
pub mod config;
pub mod fanout;
pub mod menu_cache;
pub mod rate_limit;
pub mod route_table;
pub mod state;
pub mod static_files;
pub mod stream_limits;
pub mod upstream;
