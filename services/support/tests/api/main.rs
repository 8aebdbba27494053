//! Black-box tests of the support service: the real service on port 0 called over gRPC, acting
//! through the real orders service, which refunds through the real payments service (sandbox
//! gateway), on every database engine.

mod desk;
mod helpers;
mod rules;
mod topics;
