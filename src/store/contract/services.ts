/* The deployment's engines and settings. */

export interface ServiceRecord {
  engineId: string;
  host: string;
  pid: number;
  startedAt: number;
  heartbeatAt: number;
}

/** Running engines, by their heartbeats. */
export interface ServiceRepository {
  heartbeat(service: ServiceRecord): Promise<void>;
  list(): Promise<ServiceRecord[]>;
  get(engineId: string): Promise<ServiceRecord | undefined>;
  remove(engineId: string): Promise<void>;
}

/** Settings of the deployment kept in the store (the generated key). */
export interface SettingRepository {
  /**
   * The setting's value; when it has none yet, `initial` becomes its value. Processes racing to
   * initialise one all get the first value written.
   */
  getOrInit(name: string, initial: string): Promise<string>;
}
