package dev.stele.k8s.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the test API server adds to fabric8's CRUD mock: apply patches and discovery. */
class ApiServerTest {
  final ApiServer server = new ApiServer();
  final KubernetesClient client = server.client();

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  ConfigMap apply(String manager, Map<String, String> data) {
    ConfigMap cm =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("settings")
            .withNamespace("ns")
            .endMetadata()
            .withData(data)
            .build();
    return client.resource(cm).fieldManager(manager).forceConflicts().serverSideApply();
  }

  @Test
  void anApplyCreatesWhatIsAbsentAndMergesIntoWhatExists() {
    assertThat(apply("one", Map.of("a", "1")).getData()).containsExactly(Map.entry("a", "1"));
    client
        .configMaps()
        .inNamespace("ns")
        .withName("settings")
        .edit(c -> new ConfigMapBuilder(c).addToData("by-someone-else", "x").build());

    ConfigMap merged = apply("one", Map.of("a", "2", "b", "3"));

    assertThat(merged.getData())
        .containsOnly(Map.entry("a", "2"), Map.entry("b", "3"), Map.entry("by-someone-else", "x"));
  }

  @Test
  void aFieldTheManagerNoLongerAppliesIsRemovedAndOthersKeepTheirs() {
    apply("one", Map.of("a", "1", "b", "2"));
    apply("two", Map.of("c", "3"));

    ConfigMap after = apply("one", Map.of("a", "1"));

    assertThat(after.getData()).containsOnly(Map.entry("a", "1"), Map.entry("c", "3"));
  }

  @Test
  void discoveryListsBuiltInTypesAndCrdsOnceCreated() {
    assertThat(client.getApiResources("v1").getResources())
        .extracting(APIResource::getName)
        .contains("namespaces", "secrets", "pods");
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(
            new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName("widgets.example.com")
                .endMetadata()
                .withNewSpec()
                .withGroup("example.com")
                .withScope("Namespaced")
                .withNewNames()
                .withKind("Widget")
                .withPlural("widgets")
                .endNames()
                .addNewVersion()
                .withName("v1")
                .withServed(true)
                .withStorage(true)
                .endVersion()
                .endSpec()
                .build())
        .create();

    assertThat(client.getApiGroups().getGroups()).anyMatch(g -> g.getName().equals("example.com"));
    assertThat(client.getApiResources("example.com/v1").getResources())
        .extracting(APIResource::getKind)
        .containsExactly("Widget");
  }

  @Test
  void listsEvaluateSetBasedLabelSelectorsAsARealServerDoes() {
    for (var e :
        Map.of(
                "web", Map.of("app", "web", "tier", "front"),
                "api", Map.of("app", "api"),
                "db", Map.of("app", "db", "tier", "back"),
                "bare", Map.<String, String>of())
            .entrySet()) {
      client
          .configMaps()
          .inNamespace("ns")
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName(e.getKey())
                  .withLabels(e.getValue())
                  .endMetadata()
                  .build())
          .create();
    }
    var maps = client.configMaps().inNamespace("ns");

    assertThat(names(maps.withLabelIn("app", "web", "api").list().getItems()))
        .containsExactlyInAnyOrder("web", "api");
    // NotIn and DoesNotExist select objects without the label too.
    assertThat(names(maps.withLabelNotIn("app", "web", "api").list().getItems()))
        .containsExactlyInAnyOrder("db", "bare");
    assertThat(names(maps.withoutLabel("tier").list().getItems()))
        .containsExactlyInAnyOrder("api", "bare");
    assertThat(names(maps.withLabel("tier").withLabelNotIn("tier", "back").list().getItems()))
        .containsExactly("web");
    assertThat(names(maps.withLabel("app", "db").withLabelIn("tier", "back").list().getItems()))
        .containsExactly("db");
    assertThat(names(maps.list().getItems())).hasSize(4);
  }

  static java.util.List<String> names(java.util.List<ConfigMap> items) {
    return items.stream().map(c -> c.getMetadata().getName()).toList();
  }
}
