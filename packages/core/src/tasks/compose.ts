import { join } from 'node:path';
import { taskError } from './task-error.js';
import { parseTaskYaml, readTaskText } from './task-files.js';

/**
 * What a task's compose file asks for beyond its main container: each further service (a database, a
 * web server) as a line of what is not reproduced. The main one is the service built from the task's
 * own Dockerfile, or else the first.
 */
export async function composeServices(dir: string, display: string): Promise<string[]> {
  for (const name of ['docker-compose.yaml', 'docker-compose.yml', 'compose.yaml']) {
    const shown = `${display.replace(/\/$/, '')}/${name}`;
    const text = await readTaskText(join(dir, name), shown, { optional: true });
    if (text === undefined) continue;
    const data = await parseTaskYaml(text, shown);
    const services = (data as { services?: unknown } | null)?.services;
    if (services === undefined || services === null) return [];
    if (typeof services !== 'object' || Array.isArray(services)) throw taskError(shown, 'services', 'must be a table');
    const entries = Object.entries(services as Record<string, { build?: unknown; image?: unknown } | null>);
    const main = entries.find(([, service]) => service?.build !== undefined) ?? entries[0];
    const lines: string[] = [];
    for (const [service, config] of entries) {
      if (service === main?.[0]) {
        // Terminal-Bench's standard compose names an image of its own build: that is the Dockerfile.
        if (config?.build === undefined && typeof config?.image === 'string') {
          lines.push(`the image ${config.image} (service ${service} of ${name})`);
        }
        continue;
      }
      const image = typeof config?.image === 'string' ? ` (${config.image})` : '';
      lines.push(`the service ${service}${image} of ${name}`);
    }
    return lines;
  }
  return [];
}
