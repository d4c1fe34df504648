import type { ServiceModule } from '../app.js';
import { cfnToolsView, type CfnToolsGuests } from './supervisor.js';

/** `GET /admin/cfntools`: what each server's heat-cfntools emulation did (tests read it). */
export function cfnToolsAdminService(guests: CfnToolsGuests): ServiceModule {
  return {
    name: 'admin',
    prefix: '/admin/cfntools',
    authenticated: false,
    noisy: false,
    register(app) {
      app.get('/', async () => ({
        guests: guests.list().map((record) => cfnToolsView(record, guests.root(record.serverId))),
      }));
    },
  };
}
