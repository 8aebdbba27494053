//! Roles: an operator makes a customer a support agent (`GrantRole`, by the mobile they signed up
//! with), and every session of theirs says so from then on; nobody else's does. On every engine.

use tiffin_platform::db::testing;
use tiffin_proto::account::v1::{GetSessionRequest, GrantRoleRequest};
use tonic::Code;

use crate::helpers::{answer, spawn};

#[tokio::test]
async fn a_granted_role_is_on_every_session_of_that_user_and_no_one_elses() {
    for db in testing::all().await {
        let mut svc = spawn(&db.url).await;
        let (_, ravi_token) = svc.sign_in("9876500401", "Ravi").await;
        let (_, asha_token) = svc.sign_in("9876500402", "Asha").await;
        let roles_of = async |svc: &mut crate::helpers::Svc, token: &str| {
            svc.client
                .get_session(GetSessionRequest {
                    token: token.to_string(),
                })
                .await
                .expect("live session")
                .into_inner()
                .session
                .unwrap()
                .roles
        };
        assert!(roles_of(&mut svc, &ravi_token).await.is_empty());

        let grant = |mobile: &str, role: &str| GrantRoleRequest {
            mobile: mobile.into(),
            role: role.into(),
        };
        let granted = svc
            .client
            .grant_role(grant("+91 98765 00401", "agent"))
            .await
            .expect("granted")
            .into_inner();
        // Granting it again is the same.
        let again = svc
            .client
            .grant_role(grant("9876500401", "agent"))
            .await
            .expect("granted again")
            .into_inner();
        assert_eq!(granted.user_id, again.user_id);

        assert_eq!(roles_of(&mut svc, &ravi_token).await, vec!["agent"]);
        assert!(roles_of(&mut svc, &asha_token).await.is_empty());
        // A new sign-in of Ravi's carries it too.
        let (_, new_token) = svc.sign_in("9876500401", "Ravi").await;
        assert_eq!(roles_of(&mut svc, &new_token).await, vec!["agent"]);

        let nobody = svc
            .client
            .grant_role(grant("9000000001", "agent"))
            .await
            .unwrap_err();
        assert_eq!(
            answer(nobody),
            (
                Code::NotFound,
                "No one has signed up with this mobile number.".into()
            )
        );
        let no_role = svc
            .client
            .grant_role(grant("9876500402", "admin"))
            .await
            .unwrap_err();
        assert_eq!(
            answer(no_role),
            (
                Code::InvalidArgument,
                "There is no role called 'admin'.".into()
            )
        );
    }
}
