import { randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import type pg from 'pg';
import { createPostgresClient, type WorkbenchDatabase } from '../database/index.ts';
import { EVENTS_CHANNEL, type EventHub, type EventsNotification } from '../events/index.ts';
import type { ServerLogger } from '../logging/index.ts';

/**
 * Messages servers send each other besides events: cancel a run another server executes; a
 * workbench-wide event; a card of a run another server executes was resolved (it wakes the
 * waiting tool call).
 */
export type ControlMessage =
  | { instance: string; type: 'cancel'; run_id: string }
  /** A workbench-wide event (settings.changed …) for the other servers' tabs. */
  | { instance: string; type: 'workbench-event'; event_type: string; payload: unknown }
  | { instance: string; type: 'hitl_resolved'; run_id: string; card_id: string };

/** A control message as sent: the cluster adds the sender. */
export type ControlMessageBody =
  | { type: 'cancel'; run_id: string }
  | { type: 'workbench-event'; event_type: string; payload: unknown }
  | { type: 'hitl_resolved'; run_id: string; card_id: string };

export const CONTROL_CHANNEL = 'youyou_control';
/** The first key of every instance's advisory lock ("YY"). */
const LOCK_NAMESPACE = 0x5959;
const HEARTBEAT_MS = 5_000;
const RECONNECT_MS = 1_000;
/** An instance row without its lock and without a heartbeat for this long is forgotten. */
const STALE_INSTANCE_MS = 5 * 60_000;

/**
 * Ids of instances whose process is alive (this one always counts). A query on the database
 * alone, so what needs it can have it before this server joins.
 */
export async function liveInstancesOf(database: WorkbenchDatabase, instanceId: string): Promise<Set<string>> {
  if (database.dialect === 'sqlite') return new Set([instanceId]);
  const result = await sql<{ id: string }>`select i.id from instances i
    join pg_locks l on l.locktype = 'advisory' and l.granted
      and l.classid = ${LOCK_NAMESPACE} and l.objid::bigint = i.lock_key and l.objsubid = 2`.execute(
    database.db,
  );
  const live = new Set(result.rows.map((row) => row.id));
  live.add(instanceId);
  return live;
}

/**
 * Sends a control message to the other servers (PostgreSQL NOTIFY); a no-op on SQLite. Needs only
 * the database, so the services that send are built before the cluster that listens.
 */
export async function sendControlMessage(
  database: WorkbenchDatabase,
  instanceId: string,
  message: ControlMessageBody,
): Promise<void> {
  if (database.dialect !== 'postgres') return;
  const payload = JSON.stringify({ ...message, instance: instanceId });
  await sql`select pg_notify(${CONTROL_CHANNEL}, ${payload})`.execute(database.db);
}

export interface ClusterOptions {
  database: WorkbenchDatabase;
  instanceId: string;
  hub: EventHub;
  logger: ServerLogger;
  onControl: (message: ControlMessage) => void;
}

/**
 * This server among the others on one database. Each instance has a row; on PostgreSQL it also
 * holds an advisory lock for as long as its process lives (the database drops it the moment the
 * connection dies, kill -9 included) and LISTENs for the events and control messages the others
 * NOTIFY. On SQLite there is only ever one instance (the data directory lock).
 *
 * @example
 * const cluster = await Cluster.join({ database, instanceId, hub, logger, onControl });
 * const live = await cluster.liveInstances();
 */
export class Cluster {
  readonly #options: ClusterOptions;
  readonly #lockKey = randomInt(1, 2 ** 31 - 1);
  #client: pg.Client | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #stopped = false;

  private constructor(options: ClusterOptions) {
    this.#options = options;
  }

  static async join(options: ClusterOptions): Promise<Cluster> {
    const cluster = new Cluster(options);
    // The lock first: an instance is never listed without it, so no sweep can take it for dead.
    if (options.database.dialect === 'postgres') await cluster.#connect();
    const now = Date.now();
    await options.database.db
      .insertInto('instances')
      .values({
        id: options.instanceId,
        started_at: now,
        heartbeat_at: now,
        lock_key: cluster.#lockKey,
        pid: process.pid,
        hostname: hostname(),
      })
      .execute();
    cluster.#heartbeat = setInterval(() => void cluster.#beat(), HEARTBEAT_MS);
    cluster.#heartbeat.unref();
    return cluster;
  }

  /** Ids of instances whose process is alive. */
  liveInstances(): Promise<Set<string>> {
    return liveInstancesOf(this.#options.database, this.#options.instanceId);
  }

  /**
   * Forgets instances that are gone: on SQLite every other one (one server per data directory); on
   * PostgreSQL those without their lock that have not beaten for five minutes.
   */
  async prune(live: ReadonlySet<string>): Promise<void> {
    const { database, instanceId } = this.#options;
    let query = database.db.deleteFrom('instances').where('id', '!=', instanceId);
    if (database.dialect === 'postgres') {
      query = query.where('heartbeat_at', '<', Date.now() - STALE_INSTANCE_MS);
      if (live.size > 0) query = query.where('id', 'not in', [...live]);
    }
    await query.execute();
  }

  /** Sends a control message to the other servers (PostgreSQL); a no-op on SQLite. */
  send(message: ControlMessageBody): Promise<void> {
    return sendControlMessage(this.#options.database, this.#options.instanceId, message);
  }

  async leave(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#heartbeat);
    const client = this.#client;
    this.#client = undefined;
    await this.#options.database.db
      .deleteFrom('instances')
      .where('id', '=', this.#options.instanceId)
      .execute()
      .catch(() => {});
    await client?.end().catch(() => {});
  }

  async #beat(): Promise<void> {
    const { database, instanceId, logger } = this.#options;
    try {
      await database.db
        .updateTable('instances')
        .set({ heartbeat_at: Date.now() })
        .where('id', '=', instanceId)
        .execute();
    } catch (error) {
      logger.warn({ err: error }, 'instance heartbeat failed');
    }
  }

  async #connect(): Promise<void> {
    const { database, logger } = this.#options;
    const client = createPostgresClient(database.connectionString as string);
    client.on('notification', (message) => this.#onNotification(message.channel, message.payload));
    client.on('error', (error) => {
      logger.warn({ err: error }, 'the listener connection failed; reconnecting');
      if (this.#client === client) this.#client = undefined;
      client.end().catch(() => {});
      this.#reconnect();
    });
    await client.connect();
    await client.query('select pg_advisory_lock($1::int4, $2::int4)', [LOCK_NAMESPACE, this.#lockKey]);
    await client.query(`listen ${EVENTS_CHANNEL}`);
    await client.query(`listen ${CONTROL_CHANNEL}`);
    this.#client = client;
  }

  #reconnect(): void {
    if (this.#stopped) return;
    setTimeout(() => {
      if (this.#stopped || this.#client !== undefined) return;
      this.#connect().catch((error: unknown) => {
        this.#options.logger.warn({ err: error }, 'reconnecting the listener failed');
        this.#reconnect();
      });
    }, RECONNECT_MS).unref();
  }

  #onNotification(channel: string, payload: string | undefined): void {
    if (payload === undefined) return;
    let message: unknown;
    try {
      message = JSON.parse(payload);
    } catch {
      return;
    }
    const { instanceId, hub, onControl } = this.#options;
    if (typeof message !== 'object' || message === null) return;
    if ((message as { instance?: unknown }).instance === instanceId) return;
    if (channel === EVENTS_CHANNEL) {
      const events = message as EventsNotification;
      if (typeof events.conversation === 'string' && typeof events.seq === 'number') {
        hub.wake(events.conversation, events.seq);
      }
    } else if (channel === CONTROL_CHANNEL) {
      onControl(message as ControlMessage);
    }
  }
}
