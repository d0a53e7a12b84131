<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ko_KR">
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
        <location filename="../../tokviz/ui/main_window.py" line="86" />
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="87" />
        <source>&amp;Open model file…</source>
        <translation>모델 파일 열기(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="89" />
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="91" />
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="95" />
        <source>&amp;Presentation mode</source>
        <translation>발표 모드(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="97" />
        <source>Zoom &amp;in</source>
        <translation>확대(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="98" />
        <source>Zoom &amp;out</source>
        <translation>축소(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="99" />
        <source>&amp;Reset zoom</source>
        <translation>원래 크기(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="100" />
        <source>&amp;Theme</source>
        <translation>테마(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="103" />
        <location filename="../../tokviz/ui/main_window.py" line="111" />
        <source>Follow &amp;system</source>
        <translation>시스템 설정 따르기(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="103" />
        <source>&amp;Light</source>
        <translation>밝게(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="103" />
        <source>&amp;Dark</source>
        <translation>어둡게(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="109" />
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="117" />
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="118" />
        <source>&amp;About tokviz</source>
        <translation>tokviz 정보(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="136" />
        <source>Open model file</source>
        <translation>모델 파일 열기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="136" />
        <source>Models (*.model *.tiktoken *.json *.codes *.txt);;All files (*)</source>
        <translation>모델 (*.model *.tiktoken *.json *.codes *.txt);;모든 파일 (*)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="149" />
        <source>Cannot open model</source>
        <translation>모델을 열 수 없습니다</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="152" />
        <source>Added encoder {name} ({size} tokens)</source>
        <translation>인코더 {name} 추가됨 (토큰 {size}개)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="165" />
        <source>The language changes when tokviz starts again.</source>
        <translation>언어는 tokviz를 다시 시작하면 바뀝니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="203" />
        <source>About tokviz</source>
        <translation>tokviz 정보</translation>
    </message>
</context>
<context>
    <name>ByteLayersView</name>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="166" />
        <source>Grapheme</source>
        <translation>자소 클러스터</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="166" />
        <source>Code point</source>
        <translation>코드 포인트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="166" />
        <source>Jamo</source>
        <translation>자모</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="167" />
        <source>UTF-8 byte</source>
        <translation>UTF-8 바이트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/widgets/byte_layers.py" line="167" />
        <source>Token id</source>
        <translation>토큰 ID</translation>
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
</context>
<context>
    <name>CountsBar</name>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="281" />
        <source>tokens</source>
        <translation>토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="281" />
        <source>characters</source>
        <translation>문자</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="281" />
        <source>bytes</source>
        <translation>바이트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="281" />
        <source>words</source>
        <translation>단어</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="282" />
        <source>chars / token</source>
        <translation>문자 / 토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="282" />
        <source>bytes / token</source>
        <translation>바이트 / 토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="282" />
        <source>partial-char tokens</source>
        <translation>문자 일부 토큰</translation>
    </message>
</context>
<context>
    <name>InspectPanel</name>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="359" />
        <source>Encoder</source>
        <translation>인코더</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="366" />
        <source>Normalize</source>
        <translation>정규화</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="369" />
        <source>Unicode normalization applied before encoding (NFD splits Hangul syllables into jamo)</source>
        <translation>인코딩 전에 적용할 유니코드 정규화 (NFD는 한글 음절을 자모로 나눕니다)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="373" />
        <source>Special tokens</source>
        <translation>특수 토큰</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="374" />
        <source>Parse special-token strings such as &lt;|endoftext|&gt; as single special tokens</source>
        <translation>&lt;|endoftext|&gt; 같은 특수 토큰 문자열을 하나의 특수 토큰으로 처리합니다</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="379" />
        <location filename="../../tokviz/ui/inspect.py" line="418" />
        <source>Text</source>
        <translation>텍스트</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="379" />
        <source>IDs</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="389" />
        <source>Open text…</source>
        <translation>텍스트 열기…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="393" />
        <source>Copy</source>
        <translation>복사</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="396" />
        <source>Copy text</source>
        <translation>텍스트 복사</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="396" />
        <source>Copy ids</source>
        <translation>ID 복사</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="397" />
        <source>Copy as JSON</source>
        <translation>JSON으로 복사</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="403" />
        <source>Export PNG…</source>
        <translation>PNG로 내보내기…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="413" />
        <source>Type or paste text here…</source>
        <translation>여기에 텍스트를 입력하거나 붙여넣으세요…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="419" />
        <source>Chat</source>
        <translation>채팅</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="492" />
        <source>Open model file…</source>
        <translation>모델 파일 열기…</translation>
    </message>
</context>
<context>
    <name>MessageBar</name>
    <message>
        <location filename="../../tokviz/ui/inspect.py" line="226" />
        <source>Dismiss</source>
        <translation>닫기</translation>
    </message>
</context>
<context>
    <name>_MessageRow</name>
    <message>
        <location filename="../../tokviz/ui/widgets/chat_composer.py" line="137" />
        <source>Remove this message</source>
        <translation>이 메시지 삭제</translation>
    </message>
</context>
</TS>