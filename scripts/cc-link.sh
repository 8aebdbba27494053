#!/bin/sh
# The linker cargo calls (.cargo/config.toml): the system's cc, told to link with mold when mold is
# installed, so a machine without it still builds, only slower.
if command -v mold >/dev/null 2>&1; then
  exec cc -fuse-ld=mold "$@"
fi
exec cc "$@"
