/**
 * The demo owner's published sign-in (README "Quick start"). The development launcher (apps/dev) seeds it on an empty
 * database; a production start refuses to run while it still signs in with this password (system.ts
 * `refuseDemoCredentials`), which is why it is known here.
 */
export const DEMO_ACCOUNT = { email: "demo@aquapilot.local", password: "demo1234", userName: "demo" } as const;
