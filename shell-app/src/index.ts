// The async boundary Module Federation needs before shared modules (React, @tiffin/*) are used.
import('./bootstrap');
