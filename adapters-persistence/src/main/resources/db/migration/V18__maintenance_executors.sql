-- What runs a policy's steps: the server itself ('in-process', also when no level sets it) or a
-- Spark job the server submits ('spark'). Like every field, the nearest level that sets it wins.
alter table maintenance_policies
  add column executor text check (executor in ('in-process', 'spark'));

-- What runs a job: the executor the policy named when the job was planned.
alter table maintenance_jobs
  add column executor text not null default 'in-process'
    check (executor in ('in-process', 'spark'));

-- The scheduler's system principal (MaintenanceSchedulerIdentity), so that what is kept per
-- principal (the idempotency records of the commits a Spark job sends with its job token) can
-- name it. It is a member of no org and holds no API token: nobody signs in as it.
insert into principals (id, kind, name)
values ('00000000-0000-0000-0000-00000000f10e', 'API_CLIENT', 'floe-maintenance-scheduler')
on conflict (id) do nothing;
