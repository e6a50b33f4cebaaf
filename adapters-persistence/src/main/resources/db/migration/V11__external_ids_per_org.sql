-- An external id (the identity provider's subject or email) is an org's own: each org may have
-- one user with it, and one org's users neither block nor reveal another's. A token that names
-- it acts, in each org, as that org's user.
drop index principals_external_id;
create unique index principals_external_id_per_org on principals (home_org_id, external_id)
  where external_id is not null;
