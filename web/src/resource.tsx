import { useEffect, useState } from 'preact/hooks';
import { call, type Resource, type Session, stackHash } from './api.js';
import { Badge } from './status.js';

interface Drift {
  resource_name: string;
  drift_status: string;
  drift_status_reason: string;
  property_diff: { property: string; expected: unknown; actual: unknown }[];
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

/**
 * One resource: its status and reason (from the live list), attributes (resource show), the
 * properties the template gives it, and its last drift result (expected vs actual) if any.
 */
export function ResourceDetail(props: {
  session: Session;
  path: string;
  resource: Resource;
  /** The newest observer entry of the resource: a new one reads its drift again. */
  observed?: string | undefined;
}) {
  const { session, path, resource } = props;
  const name = resource.resource_name;
  const [attributes, setAttributes] = useState<Record<string, unknown> | undefined>();
  const [properties, setProperties] = useState<unknown>();
  const [drift, setDrift] = useState<Drift | undefined>();

  useEffect(() => {
    let live = true;
    const r = `${path}/resources/${encodeURIComponent(name)}`;
    call<{ resource: Resource }>(session, 'GET', r)
      .then((x) => live && setAttributes(x.resource.attributes ?? {}))
      .catch(() => live && setAttributes({}));
    call<{ resources?: Record<string, { properties?: unknown; Properties?: unknown }> }>(
      session,
      'GET',
      `${path}/template`,
    )
      .then((t) => {
        const def = t.resources?.[name];
        if (live) setProperties(def?.properties ?? def?.Properties ?? {});
      })
      .catch(() => undefined);
    call<{ drift: { resources: Drift[] } }>(session, 'GET', `${path}/drift`)
      .then((d) => live && setDrift(d.drift.resources.find((x) => x.resource_name === name)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [session, path, name, resource.resource_status, props.observed]);

  const link = resource.links?.find((l) => l.rel === 'nested');
  const nested = link && stackHash(link.href);
  return (
    <aside class="detail" aria-label={`resource ${name}`} data-testid="resource-detail">
      <h2>{name}</h2>
      <p>
        {resource.resource_type} <Badge status={resource.resource_status} />
      </p>
      {resource.resource_status_reason && (
        <p class="reason" data-testid="resource-reason">
          {resource.resource_status_reason}
        </p>
      )}
      <dl>
        <dt>Physical id</dt>
        <dd>{resource.physical_resource_id || '—'}</dd>
      </dl>
      {nested && (
        <p>
          <a href={nested}>Open its nested stack</a>
        </p>
      )}
      <h3>Properties</h3>
      <pre>{properties === undefined ? '…' : show(properties)}</pre>
      <h3>Attributes</h3>
      <pre>{attributes === undefined ? '…' : show(attributes)}</pre>
      <h3>Drift</h3>
      {drift ? (
        <div data-testid="drift" data-drift={drift.drift_status}>
          <p>
            <Badge status={drift.drift_status} /> {drift.drift_status_reason}
          </p>
          {drift.property_diff.length > 0 && (
            <table class="diff" aria-label="drift: expected and actual values">
              <thead>
                <tr>
                  <th>Property</th>
                  <th>Expected</th>
                  <th>Actual</th>
                </tr>
              </thead>
              <tbody>
                {drift.property_diff.map((d) => (
                  <tr>
                    <td>{d.property}</td>
                    <td>
                      <pre>{show(d.expected)}</pre>
                    </td>
                    <td>
                      <pre>{show(d.actual)}</pre>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ) : (
        <p>No drift detection has covered it.</p>
      )}
    </aside>
  );
}
