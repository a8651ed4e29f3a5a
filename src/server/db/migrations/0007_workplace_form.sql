-- The workplace step moved onto the generic form-step engine (x-step in
-- schemas/workplace.schema.json): its columns become the 'workplace' document, with the names
-- the schema gives them and what the server derived beside them (occupationName, the applied
-- workplace's code, whether it lets its staff hold another account). An application without
-- an occupation had not posted the step; nulls are left out.
INSERT INTO application_forms (application_id, form, answers, updated_at)
SELECT a.id, 'workplace', jsonb_strip_nulls(jsonb_build_object(
    'occupationId', a.occupation_id,
    'occupationName', a.occupation_name,
    'occupationOther', a.occupation_other,
    'workplaceId', a.workplace_id,
    'workplaceCode', a.workplace_code,
    'workplaceName', a.workplace_name,
    'workplacePhoneNumber', a.workplace_phone_number,
    'multipleAccountsPermitted', CASE WHEN a.workplace_id IS NULL THEN NULL ELSE w.multiple_accounts = 'PERMITTED' END,
    'invitationCode', a.invitation_code,
    'existedAccountBranchCode', a.existed_account_branch_code,
    'existedAccountNumber', a.existed_account_number
  )), a.updated_at
FROM applications a
LEFT JOIN workplaces w ON w.bank_code = a.bank_code AND w.id = a.workplace_id
WHERE a.occupation_id IS NOT NULL;

ALTER TABLE applications
  DROP COLUMN occupation_id,
  DROP COLUMN occupation_name,
  DROP COLUMN occupation_other,
  DROP COLUMN workplace_id,
  DROP COLUMN workplace_code,
  DROP COLUMN workplace_name,
  DROP COLUMN workplace_phone_number,
  DROP COLUMN invitation_code,
  DROP COLUMN existed_account_branch_code,
  DROP COLUMN existed_account_number;
