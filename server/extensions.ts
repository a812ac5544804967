/**
 * Modules that extend the team server (see routes.ts): one import line each,
 * for their registerRoute / registerService / registerHealthCheck /
 * registerMigration calls. The core's own migrations come first.
 */
import "./db/core-migrations.ts";
