-- A dispute the sweep opened from a poster's cancellation request that went
-- unanswered after the tasker asked to be paid (silence never refunds then).
alter table disputes add column cancellation_request_id blob references cancellation_requests (id);
