// Set-up shared by every web project's tests.
import { configure } from '@testing-library/dom';

// How long `findBy…` and `waitFor` wait for what a test needs before failing. They return as soon
// as it is there, so this is a bound, not a sleep. The default, 1 s, was too short on a machine
// whose cores a build kept busy: a route's lazily imported page, transformed on first import,
// took longer than that to appear, and tests that pass alone failed.
configure({ asyncUtilTimeout: 5_000 });
