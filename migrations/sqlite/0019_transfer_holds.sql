-- An operator's hold on a transfer to a suspended tasker (issue 23): set when
-- the suspension begins, or when a transfer falls due during it. A suspension
-- that ends by itself leaves the hold in place (Earnings says "On hold: contact
-- support"); reinstatement by an operator lifts it, and the transfer goes out.
alter table provider_calls add column held_at integer;
