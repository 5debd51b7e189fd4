package dev.stele.operator.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** Velero's resource modifier rules: what they select, how they patch, what they refuse. */
class ResourceModifiersTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static BackedUpObject object(String group, String resource, String ns, String json)
      throws Exception {
    ObjectNode doc = (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    return new BackedUpObject(group, resource, ns, doc.at("/metadata/name").asText(), doc);
  }

  static BackedUpObject deployment(String ns, String name, String app) throws Exception {
    return object(
        "apps",
        "deployments",
        ns,
        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'"
            + name
            + "','namespace':'"
            + ns
            + "-copy','labels':{'app':'"
            + app
            + "'}},'spec':{'replicas':3,'template':{'spec':{'containers':[{'name':'main',"
            + "'image':'nginx:1.27'}]}}}}");
  }

  static ObjectNode apply(String rules, BackedUpObject o) {
    return ResourceModifiers.of("test", rules).apply(o, o.json().deepCopy()).doc();
  }

  static final String SCALE_DOWN =
      """
      version: v1
      resourceModifierRules:
      - conditions:
          groupResource: "*.apps"
          resourceNameRegex: "^web"
          namespaces: [shop]
          labelSelector:
            matchExpressions:
            - {key: app, operator: In, values: [web, api]}
          matches:
          - path: /spec/template/spec/containers/0/image
            value: nginx:1.27
        patches:
        - operation: test
          path: /spec/replicas
          value: "3"
        - operation: replace
          path: /spec/replicas
          value: "1"
        - operation: add
          path: /metadata/annotations
          value: '{"restored": "yes"}'
        - operation: add
          path: /metadata/labels/count
          value: '"7"'
        - operation: copy
          from: /spec/template/spec/containers/0
          path: /spec/template/spec/containers/1
        - operation: remove
          path: /metadata/labels/app
      """;

  @Test
  void aJsonPatchAppliesWhereEveryConditionHolds() throws Exception {
    ObjectNode out = apply(SCALE_DOWN, deployment("shop", "web-front", "web"));

    assertThat(out.at("/spec/replicas").isInt()).isTrue();
    assertThat(out.at("/spec/replicas").asInt()).isEqualTo(1);
    assertThat(out.at("/metadata/annotations/restored").asText()).isEqualTo("yes");
    // A value in quotes stays a string.
    assertThat(out.at("/metadata/labels/count").isTextual()).isTrue();
    assertThat(out.at("/metadata/labels/app").isMissingNode()).isTrue();
    assertThat(out.at("/spec/template/spec/containers/1/image").asText()).isEqualTo("nginx:1.27");
  }

  @Test
  void aRuleLeavesAloneWhatAnyConditionOrTestDoesNotSelect() throws Exception {
    for (BackedUpObject o :
        new BackedUpObject[] {
          // the namespace condition is the namespace as backed up, not the mapped one
          deployment("shop-copy", "web-front", "web"),
          deployment("shop", "api", "api"),
          deployment("shop", "web-front", "db"),
          object("", "pods", "shop", "{'metadata':{'name':'web-0','labels':{'app':'web'}}}")
        }) {
      assertThat(apply(SCALE_DOWN, o)).as(o.describe()).isEqualTo(o.json());
    }
    // Image differs: the matches condition fails. Replicas differ: the test operation fails.
    BackedUpObject other = deployment("shop", "web-front", "web");
    ((ObjectNode) other.json().at("/spec/template/spec/containers/0")).put("image", "httpd");
    assertThat(apply(SCALE_DOWN, other)).isEqualTo(other.json());
    BackedUpObject scaled = deployment("shop", "web-front", "web");
    ((ObjectNode) scaled.json().get("spec")).put("replicas", 5);
    assertThat(apply(SCALE_DOWN, scaled)).isEqualTo(scaled.json());
  }

  @Test
  void mergePatchesAndLaterRulesApplyInOrderToTheResultOfEarlierOnes() throws Exception {
    String rules =
        """
        version: v1
        resourceModifierRules:
        - conditions: {groupResource: deployments.apps}
          mergePatches:
          - patchData: |
              metadata:
                labels: {app: null, tier: front}
              spec: {replicas: 2}
        - conditions: {groupResource: "deployments.*", labelSelector: {matchLabels: {app: web}}}
          patches:
          - {operation: add, path: /spec/paused, value: "true"}
        """;
    ObjectNode out = apply(rules, deployment("shop", "web", "web"));

    assertThat(out.at("/metadata/labels").toString()).isEqualTo("{\"tier\":\"front\"}");
    assertThat(out.at("/spec/replicas").asInt()).isEqualTo(2);
    // The second rule's selector sees the object as it was before any rule: app=web.
    assertThat(out.at("/spec/paused").asBoolean()).isTrue();
    assertThat(out.at("/spec/template/spec/containers/0/name").asText()).isEqualTo("main");
  }

  @Test
  void aPatchThatCannotApplyNamesItsRule() throws Exception {
    String rules =
        """
        version: v1
        resourceModifierRules:
        - conditions: {groupResource: deployments.apps}
          patches:
          - {operation: replace, path: /spec/nothing/here, value: "1"}
        """;
    BackedUpObject o = deployment("shop", "web", "web");
    assertThatThrownBy(() -> ResourceModifiers.of("ConfigMap m key r", rules).apply(o, o.json()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("resource modifier rule 0 of ConfigMap m key r: ");
  }

  @Test
  void invalidRulesAreRefusedInOneLineNamingWhere() {
    assertRefused("version: v2\nresourceModifierRules: []", "test: version must be v1, not v2");
    assertRefused("version: v1\nresourceModifierRules: []", "resourceModifierRules is empty");
    assertRefused(
        rule("conditions: {groupResourc: pods}\n  patches: [{operation: remove, path: /a}]"),
        "resourceModifierRules[0].conditions.groupResourc: unknown field groupResourc");
    assertRefused(
        rule("conditions: {}\n  patches: [{operation: remove, path: /a}]"),
        "resourceModifierRules[0].conditions.groupResource is required");
    assertRefused(
        rule("conditions: {groupResource: pods}\n  patches: [{operation: drop, path: /a}]"),
        "resourceModifierRules[0].patches[0].operation drop: use one of add, remove, replace,"
            + " copy, move, test");
    assertRefused(
        rule("conditions: {groupResource: pods}\n  patches: [{operation: copy, path: /a}]"),
        "resourceModifierRules[0].patches[0].from is required");
    assertRefused(
        rule("conditions: {groupResource: pods}\n  patches: [{operation: remove, path: a}]"),
        "resourceModifierRules[0].patches[0].path a: a JSON pointer starts with /");
    assertRefused(
        rule(
            "conditions: {groupResource: pods}\n  patches: [{operation: remove, path: /a}]\n"
                + "  mergePatches: [{patchData: '{}'}]"),
        "resourceModifierRules[0]: give exactly one of patches, mergePatches and strategicPatches");
    assertRefused(
        rule("conditions: {groupResource: pods}\n  strategicPatches: [{patchData: '{}'}]"),
        "resourceModifierRules[0].strategicPatches are not supported");
    assertRefused(
        rule(
            "conditions: {groupResource: pods, resourceNameRegex: '(web'}\n"
                + "  patches: [{operation: remove, path: /a}]"),
        "resourceModifierRules[0].conditions.resourceNameRegex: Unclosed group");
    assertRefused(
        rule(
            "conditions: {groupResource: pods, labelSelector: {matchExpressions: [{key: a,"
                + " operator: In}]}}\n  patches: [{operation: remove, path: /a}]"),
        "resourceModifierRules[0].conditions.labelSelector.matchExpressions key a: In needs at"
            + " least one value");
    assertRefused(
        rule("conditions: {groupResource: pods}\n  mergePatches: [{patchData: '[1]'}]"),
        "resourceModifierRules[0].mergePatches[0].patchData must be an object");
    assertRefused("{not yaml", "test: not YAML or JSON");
  }

  static String rule(String body) {
    return "version: v1\nresourceModifierRules:\n- " + body + "\n";
  }

  static void assertRefused(String rules, String message) {
    assertThatThrownBy(() -> ResourceModifiers.of("test", rules))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message.startsWith("test:") ? message : "test: " + message)
        .hasMessageNotContaining("\n");
  }
}
