/** The commands bundle: register the ribbon's functions once Office is ready. */
import { registerCommands } from "./commands.ts";

Office.onReady(() => registerCommands());
