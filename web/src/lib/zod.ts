import { config } from 'zod';

// Our Content-Security-Policy forbids eval. Without this, zod probes `new Function` when it builds
// its first object schema, and the browser logs the blocked probe as a CSP violation. Every schema
// imports z from here, so this runs before any of them is built.
config({ jitless: true });

export { z } from 'zod';
