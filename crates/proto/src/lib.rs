//! The generated gRPC API of every Tiffin service, one module per protobuf package
//! (`tiffin::<domain>::v1`). Nothing here is written by hand: edit `proto/` and rebuild.
#![allow(clippy::all, missing_docs)]

/// Protobuf packages under `tiffin.`.
pub mod tiffin {
    pub mod r#type {
        pub mod v1 {
            tonic::include_proto!("tiffin.r#type.v1");
        }
    }
    pub mod discovery {
        pub mod v1 {
            tonic::include_proto!("tiffin.discovery.v1");
        }
    }
    pub mod menu {
        pub mod v1 {
            tonic::include_proto!("tiffin.menu.v1");
        }
    }
    pub mod cart {
        pub mod v1 {
            tonic::include_proto!("tiffin.cart.v1");
        }
    }
    pub mod account {
        pub mod v1 {
            tonic::include_proto!("tiffin.account.v1");
        }
    }
    pub mod payments {
        pub mod v1 {
            tonic::include_proto!("tiffin.payments.v1");
        }
    }
    pub mod orders {
        pub mod v1 {
            tonic::include_proto!("tiffin.orders.v1");
        }
    }
    pub mod membership {
        pub mod v1 {
            tonic::include_proto!("tiffin.membership.v1");
        }
    }
    pub mod support {
        pub mod v1 {
            tonic::include_proto!("tiffin.support.v1");
        }
    }
}

pub mod refund_lines;

pub use tiffin::r#type::v1 as types;
pub use tiffin::{account, cart, discovery, membership, menu, orders, payments, support};

/// Encoded `FileDescriptorSet` of every Tiffin proto, for gRPC server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/tiffin_descriptor.bin"));
