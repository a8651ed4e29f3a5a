-- The child flow's parent step moved onto the generic form-step engine (x-step in
-- schemas/parent.schema.json and schemas/parent-workplace.schema.json, both stored as the
-- applicationParent record, x-step.storedAs): each application_parents row becomes the
-- 'parent' document (the body's bankCode, which was the application's own, and the personal
-- columns, birthday as YYYY-MM-DD) and, once the parent's occupation was posted, the
-- 'parent-workplace' document, with the names the schemas give them and the occupation's name
-- beside its id (x-options labelAs). Nulls are left out, as the engine stores its answers.
INSERT INTO application_forms (application_id, form, answers, updated_at)
SELECT p.application_id, 'parent', jsonb_strip_nulls(jsonb_build_object(
    'bankCode', a.bank_code,
    'lastName', p.last_name,
    'firstName', p.first_name,
    'kanaLastName', p.kana_last_name,
    'kanaFirstName', p.kana_first_name,
    'birthday', to_char(p.birthday, 'YYYY-MM-DD'),
    'relationship', p.relationship,
    'mobilePhoneNumber', p.mobile_phone_number,
    'phoneNumber', p.phone_number,
    'proxyApplicationReason', p.proxy_application_reason
  )), p.updated_at
FROM application_parents p
JOIN applications a ON a.id = p.application_id;

INSERT INTO application_forms (application_id, form, answers, updated_at)
SELECT p.application_id, 'parent-workplace', jsonb_strip_nulls(jsonb_build_object(
    'occupationId', p.occupation_id,
    'occupationName', p.occupation_name,
    'occupationOther', p.occupation_other,
    'workplaceName', p.workplace_name,
    'workplacePhoneNumber', p.workplace_phone_number
  )), p.updated_at
FROM application_parents p
WHERE p.occupation_id IS NOT NULL;

DROP TABLE application_parents;
