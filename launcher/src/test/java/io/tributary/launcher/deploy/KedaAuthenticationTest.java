package io.tributary.launcher.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.launcher.deploy.KubernetesManifests.Manifest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The KEDA {@code TriggerAuthentication} for SASL/TLS Kafka clusters
 * ({@code setups/autoscaling/keda-kafka-auth.yaml}): it hands the Kafka scaler only parameters that scaler reads,
 * each from a key of the Secret beside it, and its name is the {@code authenticationRef} the file tells the
 * triggers to use.
 */
class KedaAuthenticationTest {

    private static final KubernetesManifests K8S = KubernetesManifests.repository();
    /** The authentication parameters of KEDA's Kafka scaler. */
    private static final Set<String> KAFKA_SCALER_PARAMETERS = Set.of("sasl", "username", "password", "tls", "ca",
        "cert", "key", "keyPassword", "oauthTokenEndpointUri", "scopes", "oauthExtensions", "unsafeSsl");
    private static final Set<String> SASL_MECHANISMS = Set.of("plaintext", "scram_sha256", "scram_sha512",
        "oauthbearer", "gssapi");

    @Test
    void theKafkaTriggerAuthenticationReadsEveryParameterFromItsSecret() {
        List<Manifest> authentications = K8S.ofKind("TriggerAuthentication");
        assertThat(authentications).hasSize(1);
        Manifest authentication = authentications.get(0);
        Map<String, Object> secret = K8S.ofFile(authentication.file()).stream()
            .filter(manifest -> manifest.kind().equals("Secret")).findFirst().orElseThrow().body();
        Map<String, Object> data = YamlTree.map(secret, "stringData");
        String secretName = YamlTree.required(YamlTree.map(secret, "metadata"), "name");

        List<Object> references = YamlTree.list(authentication.spec(), "secretTargetRef");
        assertThat(references).isNotEmpty().allSatisfy(reference -> {
            Map<String, Object> target = YamlTree.map(reference);
            assertThat(KAFKA_SCALER_PARAMETERS).as("a Kafka scaler parameter")
                .contains(YamlTree.required(target, "parameter"));
            assertThat(target).containsEntry("name", secretName);
            assertThat(data).as("the Secret's keys").containsKey(YamlTree.required(target, "key"));
        });
        assertThat(SASL_MECHANISMS).contains(String.valueOf(data.get("sasl")));
        assertThat(data.get("tls")).isIn("enable", "disable");
    }

    @Test
    void theFileNamesTheAuthenticationRefItsTriggersUse() {
        Manifest authentication = K8S.ofKind("TriggerAuthentication").get(0);
        assertThat(RepositoryFiles.read(authentication.file()))
            .contains("authenticationRef:\n#       name: " + authentication.name());
    }
}
