-- An address a provider did not verify makes no account by itself (security review 3): the
-- sign-up waits, with the person's choice, for the link we mail to the address (`confirm_hash`),
-- which must be opened in the browser that holds the sign-up token.
alter table oidc_signups add column confirm_hash text;
alter table oidc_signups add column account_type text;
alter table oidc_signups add column skills_json text;
create unique index oidc_signups_confirm on oidc_signups (confirm_hash);

-- An identity linked while its address was unverified (before the above, and every Facebook
-- one: Facebook does not say whether it verified an address) signs nobody in; a password reset
-- removes it. Every identity linked from now on has its address confirmed.
alter table user_identities add column address_confirmed boolean not null default true;
update user_identities set address_confirmed = false
 where provider = 'facebook' or user_id in (select id from users where email_verified = false);
